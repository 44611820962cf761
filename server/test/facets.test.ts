import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FacetStore } from '../src/store/facets.ts';
import { openStore } from '../src/store/store.ts';
import { fails, ok } from './support/api.ts';
import { fileFor, useSeededServer, type SeedPage } from './support/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 1, 1);

const PAGES: SeedPage[] = [
  {
    key: 'a',
    title: 'A',
    ext: 'html',
    link: 'https://b.example/1',
    labels: ['news', 'tech'],
    addedAt: T0 + DAY,
  },
  {
    key: 'b',
    title: 'B',
    ext: 'mhtml',
    link: 'https://B.example/2',
    labels: ['tech'],
    addedAt: T0 + 2 * DAY,
  },
  {
    key: 'c',
    title: 'C',
    ext: 'html',
    link: 'http://a.example:8080/3',
    labels: ['art'],
    addedAt: T0 + 3 * DAY,
  },
  // No link: no host.
  { key: 'd', title: 'D', ext: 'html', labels: ['news'], addedAt: T0 + 4 * DAY },
  // Deleted below: its host and labels must not count.
  {
    key: 'gone',
    title: 'Gone',
    ext: 'html',
    link: 'https://gone.example/x',
    labels: ['tech', 'only-deleted'],
    addedAt: T0 + 5 * DAY,
  },
];

// The deleted page's host and labels must not count.
const archive = useSeededServer(PAGES, async (server, seeded) => {
  await ok(server, 'deleteWebpage', { params: { id: seeded.id('gone') } });
});

describe('getFacets (Folio extension)', () => {
  it('answers the hosts and labels of live webpages, most used first, as the spec says', async () => {
    // `ok` checks the status and the body against the contract.
    const facets = await ok(archive, 'getFacets');
    expect(facets).toEqual({
      hosts: [
        { value: 'b.example', count: 2 },
        { value: 'a.example:8080', count: 1 },
      ],
      // Equal counts in value order.
      labels: [
        { value: 'news', count: 2 },
        { value: 'tech', count: 2 },
        { value: 'art', count: 1 },
      ],
    });
  });

  it('gives hosts the list filter accepts', async () => {
    const { hosts } = await ok(archive, 'getFacets');
    for (const { value, count } of hosts) {
      const list = await ok(archive, 'listWebpages', { query: { host: value } });
      expect(list.webpages, value).toHaveLength(count);
    }
  });

  it('follows label changes and restores', async () => {
    await ok(archive, 'patchWebpage', {
      params: { id: archive.id('c') },
      body: { labels: [] },
    });
    let facets = await ok(archive, 'getFacets');
    expect(facets.labels.map((label) => label.value)).not.toContain('art');

    // Re-uploading the deleted page's bytes restores it with its labels.
    const gone = PAGES.find((page) => page.key === 'gone')!;
    await ok(archive, 'uploadWebpage', {
      body: { content: fileFor(gone).toString('base64'), ext: 'html' },
    });
    facets = await ok(archive, 'getFacets');
    expect(facets.labels).toContainEqual({ value: 'only-deleted', count: 1 });
    expect(facets.labels[0]).toEqual({ value: 'tech', count: 3 });
    expect(facets.hosts).toContainEqual({ value: 'gone.example', count: 1 });
  });

  it('needs the token', async () => {
    await fails(archive, 'getFacets', 401, { token: null });
  });
});

describe('FacetStore', () => {
  it('caps each list and reads the kept counts in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-facets-'));
    const store = await openStore(dir);
    try {
      const insert = store.db.prepare(
        `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size,
           first_add_time, create_time, last_modified)
         VALUES (?, '', '', '', ?, ?, 'html', 1, 1, 1, 1)`,
      );
      store.db.transaction(() => {
        for (let n = 0; n < 5; n++) {
          const id = n.toString(16).padStart(64, '0');
          insert.run(id, `https://h${n}.example/`, `h${n}.example`);
          store.labels.replace(id, [`l${n}`, 'common']);
        }
      })();
      expect(new FacetStore(store.db).all(3)).toEqual({
        hosts: [
          { value: 'h0.example', count: 1 },
          { value: 'h1.example', count: 1 },
          { value: 'h2.example', count: 1 },
        ],
        labels: [
          { value: 'common', count: 5 },
          { value: 'l0', count: 1 },
          { value: 'l1', count: 1 },
        ],
      });
      const plan = (sql: string) =>
        (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1000) as { detail: string }[]).map(
          (row) => row.detail,
        );
      // The kept counts are read in order from their index: no grouping, no sorting.
      expect(plan(FacetStore.sql.hosts)).toEqual([
        'SCAN host_counts USING COVERING INDEX host_counts_by_live',
      ]);
      expect(plan(FacetStore.sql.labels)).toEqual([
        'SCAN label_counts USING COVERING INDEX label_counts_by_live',
      ]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
