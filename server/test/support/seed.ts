import { afterAll, beforeAll } from 'vitest';
import { makeHtml, makeMhtml, makeWebarchive } from '../../../test/support/archives.ts';
import { ok, upload, type ApiTarget, type Ext } from './api.ts';
import { startTestServer, type TestServer } from './test-server.ts';

export interface SeedPage {
  key: string;
  title: string;
  ext: Ext;
  link?: string;
  liked?: boolean;
  read?: boolean;
  labels?: string[];
  highlights?: number;
  /** Epoch ms of the upload. */
  addedAt: number;
  text?: string;
}

/** A file of the given kind whose bytes are unique to `page`. */
export function fileFor(page: Pick<SeedPage, 'key' | 'title' | 'ext' | 'text'>): Buffer {
  const body = `<p>${page.text ?? `Text of ${page.key}.`}</p>`;
  const html = `<html><head><title>${page.title}</title></head><body>${body}</body></html>`;
  switch (page.ext) {
    case 'html':
      return makeHtml({ title: page.title, body });
    case 'mhtml':
      return makeMhtml({ html, boundary: `----MultipartBoundary--${page.key}----` });
    case 'webarchive':
      return makeWebarchive({ html, url: `https://webarchive.example/${page.key}` });
  }
}

/** Uploads the pages (in order, each at its time) and applies their metadata; key → id. */
export async function seed(server: TestServer, pages: readonly SeedPage[]) {
  const ids = new Map<string, string>();
  for (const page of pages) {
    server.clock.set(page.addedAt);
    const stored = await upload(server, fileFor(page), page.ext, {
      title: page.title,
      ...(page.link === undefined ? {} : { link: page.link }),
    });
    ids.set(page.key, stored.id);
    const patch = {
      ...(page.liked === undefined ? {} : { liked: page.liked }),
      ...(page.read === undefined ? {} : { read: page.read }),
      ...(page.labels === undefined ? {} : { labels: page.labels }),
    };
    if (Object.keys(patch).length > 0) {
      await ok(server, 'patchWebpage', { params: { id: stored.id }, body: patch });
    }
    for (let n = 0; n < (page.highlights ?? 0); n++) {
      await ok(server, 'createHighlight', {
        params: { id: stored.id },
        body: { text: `mark ${n}`, textBefore: '', textAfter: '' },
      });
    }
  }
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  return {
    ids,
    id: (key: string) => {
      const id = ids.get(key);
      if (id === undefined) throw new Error(`no seeded page ${key}`);
      return id;
    },
    /** Seed keys of webpages, in the order given. */
    keys: (items: readonly { id: string }[]) => items.map((item) => keyOf.get(item.id) ?? item.id),
  };
}

export type Seeded = Awaited<ReturnType<typeof seed>>;

/**
 * A test file's server with its seeded pages (see `useSeededServer`): an API target itself, for
 * `ok(archive, …)`, `upload(archive, …)`.
 */
export interface SeededServer extends ApiTarget {
  readonly server: TestServer;
  /** The id of the seeded page `key`. */
  id(key: string): string;
  /** Seed keys of webpages, in the order given. */
  keys(items: readonly { id: string }[]): string[];
}

/**
 * One server for the whole test file: started and seeded with `pages` before its tests (then
 * `prepare` runs, e.g. to delete a page or set the clock), closed after them. Use it inside tests
 * and hooks only.
 */
export function useSeededServer(
  pages: readonly SeedPage[],
  prepare?: (server: TestServer, seeded: Seeded) => Promise<void> | void,
): SeededServer {
  let server: TestServer | undefined;
  let seeded: Seeded | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seed(server, pages);
    await prepare?.(server, seeded);
  });
  afterAll(async () => {
    await server?.close();
  });
  const get = () => {
    if (!server || !seeded) {
      throw new Error('the seeded server is not started (use it in tests and hooks)');
    }
    return { server, seeded };
  };
  return {
    get server() {
      return get().server;
    },
    get url() {
      return get().server.url;
    },
    get token() {
      return get().server.token;
    },
    id: (key) => get().seeded.id(key),
    keys: (items) => get().seeded.keys(items),
  };
}
