import { makeHtml, makeMhtml, makeWebarchive } from '../../../test/support/archives.ts';
import { ok, upload, type Ext } from './api.ts';
import type { TestServer } from './test-server.ts';

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
