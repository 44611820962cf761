import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { closeLiveWeb, startLiveWeb, type LiveWeb } from './live-web.ts';
import { startServer, type RunningServer } from './server.ts';

type Ext = 'html' | 'mhtml' | 'webarchive';

export interface Archive extends RunningServer {
  /** Calls the archive's API directly (for seeding and for checking what the server stored). */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  upload(
    file: Buffer,
    ext: Ext,
    extra?: { title?: string; link?: string },
  ): Promise<{ id: string; title: string }>;
  /** Opens the app at `path`, handing it the token through the address fragment. */
  open(page: Page, path?: string): Promise<void>;
}

/** Starts a real server with an empty archive (`env` adds server settings) and its helpers. */
export async function startArchive(env: Record<string, string> = {}): Promise<Archive> {
  const server = await startServer(env);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/public/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { success?: boolean; data?: T; message?: string };
    if (!response.ok || json.success !== true) {
      throw new Error(`${method} ${path} failed: ${response.status} ${json.message ?? ''}`);
    }
    return json.data as T;
  };
  return {
    ...server,
    api,
    upload: (file, ext, extra = {}) =>
      api('POST', '/webpages', { content: file.toString('base64'), ext, ...extra }),
    open: async (page, path = '/') => {
      await page.goto(`${server.url}${path}#token=${encodeURIComponent(server.token)}`);
    },
  };
}

/** A fixture of a server started with `env` (its own data folder), stopped after the test. */
function archiveFixture(env: Record<string, string> = {}) {
  return async (
    { context }: { context: BrowserContext },
    use: (archive: Archive) => Promise<void>,
  ): Promise<void> => {
    const archive = await startArchive(env);
    await use(archive);
    // Close the browser first: it keeps spare connections open to the server, and a server
    // stopping under open connections waits a grace period for them.
    await context.close();
    await archive.stop();
  };
}

export const test = base.extend<{
  archive: Archive;
  hamster: Archive;
  quirkyArchive: Archive;
  liveWeb: LiveWeb;
}>({
  // Every test gets its own server and empty archive: tests never see each other's pages.
  archive: archiveFixture(),
  // The server as HamsterBase behaves (Folio's test switch FOLIO_AS_HAMSTERBASE=1).
  hamster: archiveFixture({ FOLIO_AS_HAMSTERBASE: '1' }),
  // A server that ignores filters in PATCH, as HamsterBase does.
  quirkyArchive: archiveFixture({ FOLIO_IGNORE_VIEW_FILTER_PATCH: '1' }),
  // The test's own live web stand-in; the context closes first: Chromium keeps connections to it.
  liveWeb: async ({ context }, use) => {
    const live = await startLiveWeb();
    await use(live);
    await closeLiveWeb(live, context);
  },
});

export { expect };
