import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from '@playwright/test';

export interface LiveWeb {
  /** Origin of a stand-in for "the live web", e.g. http://127.0.0.1:40125 */
  origin: string;
  /** Every request it received, in order ("METHOD /path"). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A local server standing in for the live web. Archived pages in the tests point their scripts,
 * images, styles and links at it; a safe preview must never make it receive a request.
 * It answers with content that would be visible if it were ever loaded.
 */
export async function startLiveWeb(): Promise<LiveWeb> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = req.url ?? '/';
    if (url.endsWith('.js')) {
      res.setHeader('content-type', 'text/javascript');
      res.end('document.title = "LIVE SCRIPT RAN"; window.top.__liveScriptRan = true;');
    } else if (url.endsWith('.css')) {
      res.setHeader('content-type', 'text/css');
      res.end('body { background: rgb(255, 0, 0) !important; }');
    } else {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>live</title><p>LIVE WEB</p>');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        // Chromium keeps spare connections open; don't wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

/**
 * Chromium keeps spare connections to a server it loaded a document from, and the live web's close
 * waits for them: close the browser context (the test's alone) first.
 */
export async function closeLiveWeb(live: LiveWeb, context: BrowserContext): Promise<void> {
  await context.close();
  await live.close();
}
