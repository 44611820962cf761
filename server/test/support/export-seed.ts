import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { ok, type ApiTarget } from './api.ts';
import { readStoredOriginal } from './originals.ts';
import { seed, type SeedPage } from './seed.ts';
import type { TestServer } from './test-server.ts';

/** Pages of every format, with labels, likes, read state and highlights with notes. */
export const EXPORT_PAGES: readonly SeedPage[] = [
  {
    key: 'html',
    title: 'An HTML page & <friends>',
    ext: 'html',
    link: 'https://example.com/a?x=1&y="2"',
    liked: true,
    labels: ['reading', 'Zürich "quotes"'],
    addedAt: Date.UTC(2024, 0, 2),
  },
  {
    key: 'mhtml',
    title: 'An MHTML page',
    ext: 'mhtml',
    read: true,
    labels: ['reading'],
    addedAt: Date.UTC(2024, 1, 3),
  },
  {
    key: 'webarchive',
    title: 'A webarchive',
    ext: 'webarchive',
    liked: true,
    read: true,
    addedAt: Date.UTC(2024, 2, 4),
  },
  { key: 'plain', title: 'No metadata', ext: 'html', addedAt: Date.UTC(2024, 3, 5) },
];

/** Seeds EXPORT_PAGES, highlights (with notes and positions) and two views with filters. */
export async function seedExportArchive(server: TestServer) {
  const seeded = await seed(server, EXPORT_PAGES);
  server.clock.set(Date.UTC(2024, 5, 1));
  await ok(server, 'createHighlight', {
    params: { id: seeded.id('html') },
    body: {
      text: 'Text of',
      textBefore: '',
      textAfter: ' html.',
      note: 'a note',
      tenThousandth: 1234,
    },
  });
  await ok(server, 'createHighlight', {
    params: { id: seeded.id('html') },
    body: { text: 'html', textBefore: 'Text of ', textAfter: '.' },
  });
  await ok(server, 'createHighlight', {
    params: { id: seeded.id('mhtml') },
    body: { text: 'mhtml', textBefore: 'of ', textAfter: '', note: 'ünïcode ✓' },
  });
  await ok(server, 'createView', {
    body: {
      title: 'Reading',
      description: 'pages to read',
      filters: [{ type: 2, key: 'label', operator: 0, rightOperand: ['reading'] }],
      sort: 1,
      limit: 10,
      enableLimit: true,
    },
  });
  await ok(server, 'createView', {
    body: { title: 'Liked', filters: [{ type: 0, key: 'liked', operator: true }], match: 'or' },
  });
  return seeded;
}

/** Everything the API shows of an archive, in a stable order, and each original's sha256. */
export async function archiveSnapshot(target: ApiTarget) {
  const list = await ok(target, 'listWebpages', {
    query: { per_page: 1000, sort: 'first_add_time_asc' },
  });
  const webpages = [];
  const sha256 = new Map<string, string>();
  for (const item of list.webpages) {
    webpages.push(await ok(target, 'getWebpage', { params: { id: item.id } }));
    const content = await ok(target, 'getWebpageContent', { params: { id: item.id } });
    sha256.set(item.id, createHash('sha256').update(Buffer.from(content, 'base64')).digest('hex'));
  }
  const views = (await ok(target, 'listViews')).sort((a, b) => a.id.localeCompare(b.id));
  return { webpages, views, sha256 };
}

/** The sha256 of the original of `id` kept in `dataDir` (in its database or blob store). */
export function blobSha256(dataDir: string, id: string): string {
  const bytes = readStoredOriginal(dataDir, id) ?? Buffer.alloc(0);
  return createHash('sha256').update(bytes).digest('hex');
}

export function expectSameIds(snapshot: Awaited<ReturnType<typeof archiveSnapshot>>): void {
  for (const [id, sha] of snapshot.sha256) expect(sha).toBe(id);
}
