// Real Chromium MHTML for the journeys: a tiny local website serves a page with its image and
// stylesheet, Chromium opens it and saves it with `Page.captureSnapshot` (what "Save page as… single
// file" does), so the upload and the preview are tested on Chromium's own output.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from '@playwright/test';
import { encodeQuotedPrintable } from '../../test/support/archives.ts';

export interface SiteFile {
  contentType: string;
  body: Buffer | string;
}

export interface SourceSite {
  /** e.g. http://127.0.0.1:40125 */
  origin: string;
  /** host:port, as the archive's host filter and the list show it. */
  host: string;
  /** Every request it received, in order ("METHOD /path"). */
  requests: string[];
  close(): Promise<void>;
}

/** A local website serving `files` by path (e.g. `/article/index.html`); 404 for anything else. */
export async function startSourceSite(files: Record<string, SiteFile>): Promise<SourceSite> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.url}`);
    const file = files[new URL(req.url ?? '/', 'http://site').pathname];
    if (!file) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', file.contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface CaptureOptions {
  /** Origins whose requests fail during the capture, so their resources are not in the file. */
  blockOrigins?: string[];
}

/**
 * Opens `url` in a fresh Chromium context (scripts off, like a page saved before they ran) and
 * returns Chromium's MHTML snapshot of it.
 */
export async function captureMhtml(
  browser: Browser,
  url: string,
  { blockOrigins = [] }: CaptureOptions = {},
): Promise<Buffer> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    for (const origin of blockOrigins) {
      await context.route(`${origin}/**`, (route) => route.abort('connectionrefused'));
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const cdp = await context.newCDPSession(page);
    const { data } = (await cdp.send('Page.captureSnapshot', { format: 'mhtml' })) as {
      data: string;
    };
    if (!data.startsWith('From: <Saved by Blink>')) {
      throw new Error(`unexpected capture: ${data.slice(0, 200)}`);
    }
    return Buffer.from(data, 'latin1');
  } finally {
    await context.close();
  }
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-Fa-f]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/**
 * Chromium leaves scripts and event handlers out of its snapshots. To check that the preview would
 * not run them anyway, this edits the main document of a capture (`edit` gets and returns its HTML)
 * and writes it back quoted-printable, as Chromium does; every other byte of the file is kept.
 */
export function editCapturedDocument(mhtml: Buffer, edit: (html: string) => string): Buffer {
  const text = mhtml.toString('latin1');
  const boundary = /boundary="([^"]+)"/.exec(text)?.[1];
  if (!boundary) throw new Error('no boundary in the capture');
  const delimiter = `--${boundary}\r\n`;
  const start = text.indexOf(delimiter);
  const end = text.indexOf(`\r\n--${boundary}`, start + delimiter.length);
  if (start === -1 || end === -1) throw new Error('no main part in the capture');
  const part = text.slice(start + delimiter.length, end);
  const headerEnd = part.indexOf('\r\n\r\n');
  const headers = part.slice(0, headerEnd);
  if (!/^content-transfer-encoding:\s*quoted-printable/im.test(headers)) {
    throw new Error(`the main part is not quoted-printable:\n${headers}`);
  }
  const html = decodeQuotedPrintable(part.slice(headerEnd + 4)).toString('utf8');
  const edited = edit(html);
  if (edited === html) throw new Error('the edit changed nothing');
  const body = encodeQuotedPrintable(Buffer.from(edited, 'utf8'));
  const rebuilt = `${text.slice(0, start + delimiter.length)}${headers}\r\n\r\n${body}${text.slice(end)}`;
  return Buffer.from(rebuilt, 'latin1');
}
