// How the list finds its pages: deep pages are sliced from a kept prefix of the sorted ids
// (IdPrefixCache), common labels are probed page by page in the sort's order. Either way the
// pages must be those that plain LIMIT/OFFSET gives, and never outlive a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdPrefixCache } from '../src/store/id-prefix-cache.ts';
import { openStore, type Store } from '../src/store/store.ts';
import {
  KEEP_IDS_FROM_OFFSET,
  WebpageList,
  type Paging,
  type WebpageSort,
} from '../src/store/webpage-list.ts';
import type { WebpageFilters } from '../src/store/webpage-filters.ts';
import type { WriteGeneration } from '../src/store/write-generation.ts';

const PAGES = 1_500;
const idOf = (n: number) => n.toString(16).padStart(64, '0');

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-deep-'));
  store = await openStore(dir);
  store.db.transaction(() => {
    for (let n = 0; n < PAGES; n++) {
      store.webpages.insert(
        {
          id: idOf(n),
          title: `Title ${(n * 7919) % PAGES}`,
          excerpt: '',
          text: '',
          link: `https://h${n % 3}.example/${n}`,
          host: `h${n % 3}.example`,
          ext: n % 2 === 0 ? 'html' : 'mhtml',
          size: 1,
          createTime: n,
        },
        1_000 + n,
      );
      if (n % 4 === 0) store.webpages.update(idOf(n), { labels: ['deep'] }, 1_000 + n);
    }
  })();
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page as LIMIT/OFFSET gives it, without any kept ids. */
function direct(filters: WebpageFilters, sort: WebpageSort, paging: Paging): string[] {
  const { sql, params } = WebpageList.query(filters, sort, paging);
  return store.db
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}

const ids = (filters: WebpageFilters, sort: WebpageSort, paging: Paging) =>
  store.list.list(filters, sort, paging).map((page) => page.id);

const deepPage = Math.ceil((KEEP_IDS_FROM_OFFSET + 1) / 30) + 1;

describe('deep pages', () => {
  const deep: Paging = { page: deepPage, perPage: 30 };

  it('are the pages LIMIT/OFFSET gives, for every sort, filtered or not', () => {
    const cases: [WebpageFilters, WebpageSort][] = [
      [{}, 'title_asc'],
      [{}, 'first_add_time_desc'],
      [{ exts: ['html'] }, 'title_desc'],
      [{ labels: ['deep'] }, 'annotate_count_desc'],
      [{ hosts: ['h1.example', 'h2.example'] }, 'first_add_time_asc'],
    ];
    for (const [filters, sort] of cases) {
      for (const page of [deep.page, deep.page + 1, deep.page + 25, 200]) {
        const paging = { ...deep, page };
        expect(ids(filters, sort, paging), `${JSON.stringify(filters)} ${sort} ${page}`).toEqual(
          direct(filters, sort, paging),
        );
      }
    }
    expect(ids({}, 'title_asc', deep)).toHaveLength(30);
  });

  it('follow every write at once', () => {
    const before = ids({}, 'title_asc', deep);
    const moved = before[0] ?? '';
    // Renamed to sort first: every later page shifts by one.
    store.webpages.update(moved, { title: '   ' }, 9_000);
    const after = ids({}, 'title_asc', deep);
    expect(after).toEqual(direct({}, 'title_asc', deep));
    expect(after).not.toContain(moved);
    store.webpages.softDelete(after[5] ?? '', 9_001);
    expect(ids({}, 'title_asc', deep)).toEqual(direct({}, 'title_asc', deep));
    expect(ids({}, 'title_asc', deep)).not.toContain(after[5]);
  });
});

describe('label filters', () => {
  const plan = (query: { sql: string; params: unknown[] }) =>
    (
      store.db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as {
        detail: string;
      }[]
    ).map((row) => row.detail);

  it('read a common label’s first pages in order, a rare label’s pages through its index', () => {
    // 'deep' is on a quarter of the pages; 'rare' on three.
    store.db.transaction(() => {
      for (const n of [3, 700, 1_400]) store.webpages.update(idOf(n), { labels: ['rare'] }, 9_500);
    })();
    expect(store.list.labelCheck({ labels: ['deep'] }, 30)).toBe('probe');
    expect(store.list.labelCheck({ labels: ['deep'] }, 15_000)).toBe('set');
    expect(store.list.labelCheck({ labels: ['rare'] }, 30)).toBe('set');
    expect(store.list.labelCheck({ labels: ['missing'] }, 30)).toBe('set');
    // Probed: the sort's own index, each page's labels looked up by its key.
    const probed = plan(
      WebpageList.query({ labels: ['deep'] }, 'title_asc', { page: 1, perPage: 30 }, 'probe'),
    );
    expect(probed[0]).toBe('SEARCH w USING COVERING INDEX webpages_by_title (deleted=?)');
    expect(probed.join('\n')).toMatch(/SEARCH l USING PRIMARY KEY \(webpage_id=\? AND label=\?\)/);
    expect(probed.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('give the same pages either way', () => {
    const cases: WebpageFilters[] = [
      { labels: ['deep'] },
      { labels: ['deep'], read: false, exts: ['html'] },
      { labels: ['deep', 'rare'] },
      { labels: ['deep'], hosts: ['h1.example'] },
    ];
    for (const filters of cases) {
      for (const sort of ['first_add_time_desc', 'title_desc', 'annotate_count_asc'] as const) {
        for (const page of [1, 2, 7, deepPage]) {
          const paging = { page, perPage: 30 };
          const expected = direct(filters, sort, paging);
          expect(ids(filters, sort, paging), `${JSON.stringify(filters)} ${sort} ${page}`).toEqual(
            expected,
          );
          const probed = WebpageList.query(filters, sort, paging, 'probe');
          expect(
            store.db
              .prepare(probed.sql)
              .pluck()
              .all(...probed.params),
          ).toEqual(expected);
        }
      }
    }
  });
});

describe('IdPrefixCache', () => {
  const counting = () => {
    let generation = 0;
    const loads: number[] = [];
    const source = Array.from({ length: 1_000 }, (_, n) => `id${n}`);
    const load = (count: number) => {
      loads.push(count);
      return source.slice(0, count);
    };
    const clock = { current: () => String(generation) } as WriteGeneration;
    return { load, loads, clock, write: () => (generation += 1) };
  };

  it('loads once per generation while the kept prefix covers the pages', () => {
    const { load, loads, clock, write } = counting();
    const cache = new IdPrefixCache(clock);
    expect(cache.slice('q', 100, 110, 50, load)).toEqual(
      Array.from({ length: 10 }, (_, n) => `id${100 + n}`),
    );
    cache.slice('q', 110, 120, 50, load);
    cache.slice('q', 150, 160, 50, load);
    expect(loads).toEqual([160]);
    cache.slice('q', 160, 170, 50, load); // past the prefix: read further
    expect(loads).toEqual([160, 220]);
    write();
    cache.slice('q', 100, 110, 50, load);
    expect(loads).toEqual([160, 220, 160]);
  });

  it('knows when the query has no more ids', () => {
    const { load, loads, clock } = counting();
    const cache = new IdPrefixCache(clock);
    expect(cache.slice('q', 990, 1_000, 50, load)).toHaveLength(10);
    expect(cache.slice('q', 1_000, 1_010, 50, load)).toEqual([]);
    expect(loads).toEqual([1_050]);
  });

  it('keeps at most its entries and ids', () => {
    const { load, loads, clock } = counting();
    const cache = new IdPrefixCache(clock, { entries: 2, maxIds: 250 });
    cache.slice('a', 0, 10, 90, load); // 100 ids
    cache.slice('b', 0, 10, 90, load); // 100 ids
    cache.slice('c', 0, 10, 90, load); // a third entry: the least recently used ('a') goes
    cache.slice('b', 0, 10, 90, load); // still kept
    cache.slice('a', 0, 10, 90, load); // loaded again
    expect(loads).toHaveLength(4);
    cache.slice('big', 0, 300, 0, load); // more than maxIds: served, not kept
    cache.slice('big', 0, 300, 0, load);
    expect(loads).toHaveLength(6);
  });
});
