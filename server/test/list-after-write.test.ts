// Deep list pages and counts after a write: the kept ids of a query (and the pages counted for a
// label or host filter) are corrected for the pages changed since, by any connection (PageChanges,
// the change log kept by triggers; IdPrefixCache's patch) instead of being read again. Whatever
// the writes, the pages must be those that plain LIMIT/OFFSET gives at that moment.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../test/support/prng.ts';
import { IdPrefixCache } from '../src/store/id-prefix-cache.ts';
import type { ChangeMark } from '../src/store/page-changes.ts';
import { StagedBytes } from '../src/store/blobs.ts';
import { PageChanges } from '../src/store/page-changes.ts';
import { openStore, type Store } from '../src/store/store.ts';
import {
  KEEP_IDS_FROM_OFFSET,
  WebpageList,
  type Paging,
  type WebpageSort,
} from '../src/store/webpage-list.ts';
import { webpageFilterSql, type WebpageFilters } from '../src/store/webpage-filters.ts';

const PAGES = 2_400;
const SEED = Number(process.env.FOLIO_LIST_SEED ?? 0x11_5716);
const idOf = (n: number) => n.toString(16).padStart(64, '0');
/** Titles with ties, case, accents and characters past the BMP (SQLite compares bytes). */
const TITLES = ['Alpha', 'alpha', 'Émile', 'zeta', '𝔘nicode', 'Ω', 'Beta', 'beta', '', '日本'];

let dir: string;
let store: Store;

function newPage(n: number) {
  return {
    id: idOf(n),
    title: `${TITLES[n % TITLES.length]} ${n % 37}`,
    excerpt: '',
    text: '',
    link: `https://h${n % 3}.example/${n}`,
    host: `h${n % 3}.example`,
    ext: n % 2 === 0 ? ('html' as const) : ('mhtml' as const),
    size: 1,
    createTime: n,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-after-write-'));
  store = await openStore(dir);
  store.db.transaction(() => {
    for (let n = 0; n < PAGES; n++) {
      // Times repeat: ties are broken by the id.
      store.webpages.insert(newPage(n), 1_000 + (n % 400));
      if (n % 4 !== 0) store.webpages.update(idOf(n), { labels: ['popular'] }, 2_000);
    }
  })();
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function direct(filters: WebpageFilters, sort: WebpageSort, paging: Paging): string[] {
  const { sql, params } = WebpageList.query(filters, sort, paging);
  return store.db
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}

function directCount(filters: WebpageFilters): number {
  const where = webpageFilterSql(filters);
  return store.db
    .prepare(`SELECT count(*) FROM webpages w WHERE ${where.sql}`)
    .pluck()
    .get(...where.params) as number;
}

const ids = (filters: WebpageFilters, sort: WebpageSort, paging: Paging) =>
  store.list.list(filters, sort, paging).map((page) => page.id);

const CASES: [WebpageFilters, WebpageSort][] = [
  [{}, 'title_asc'],
  [{ labels: ['popular'] }, 'title_desc'],
  [{ labels: ['popular'], read: false }, 'first_add_time_desc'],
  [{ exts: ['html'] }, 'first_add_time_asc'],
  [{}, 'annotate_count_desc'],
  [{ labels: ['popular'], hosts: ['h1.example', 'h2.example'] }, 'annotate_count_asc'],
];

describe('deep list pages after writes', () => {
  it('are the pages LIMIT/OFFSET gives, and the counts count(*) gives, after every kind of write', () => {
    const random = prng(SEED);
    const pick = () => idOf(Math.floor(random() * (PAGES + 40)));
    let added = PAGES;
    const firstDeep = Math.floor(KEEP_IDS_FROM_OFFSET / 10) + 1;
    for (let step = 0; step < 100; step++) {
      const roll = random();
      const id = pick();
      const now = 5_000 + step;
      if (roll < 0.15) store.webpages.update(id, { read: random() < 0.5 }, now);
      else if (roll < 0.3) store.webpages.update(id, { title: TITLES[step % 10] ?? '' }, now);
      else if (roll < 0.45) {
        store.webpages.update(id, { labels: random() < 0.5 ? ['popular'] : [] }, now);
      } else if (roll < 0.55) store.webpages.softDelete(id, now);
      else if (roll < 0.65) store.webpages.restore(id, now);
      else if (roll < 0.75) store.webpages.insert(newPage(added++), now);
      else if (roll < 0.85) {
        if (store.webpages.find(id) !== undefined) {
          store.highlights.create(id, { text: 'x', textBefore: '', textAfter: '' }, now);
        }
      } else if (roll < 0.9) {
        // Several pages in one transaction.
        store.db.transaction(() => {
          for (let k = 0; k < 5; k++) store.webpages.update(pick(), { liked: true }, now);
        })();
      }
      for (const [filters, sort] of CASES) {
        expect(store.list.count(filters), `count at step ${step} ${JSON.stringify(filters)}`).toBe(
          directCount(filters),
        );
        // From offset 1,000, around the end of the kept prefix (1,210 ids), and past it.
        const around = firstDeep + 20;
        for (const page of [
          firstDeep,
          firstDeep + Math.floor(random() * 20),
          around,
          around + 10,
        ]) {
          const paging = { page, perPage: 10 };
          expect(
            ids(filters, sort, paging),
            `step ${step} ${JSON.stringify(filters)} ${sort}`,
          ).toEqual(direct(filters, sort, paging));
        }
      }
    }
  });

  it('sees what another connection wrote', () => {
    const paging = { page: Math.floor(KEEP_IDS_FROM_OFFSET / 10) + 1, perPage: 10 };
    const before = ids({}, 'title_asc', paging);
    const other = new BetterSqlite3(join(dir, 'folio.db'));
    try {
      other
        .prepare('UPDATE webpages SET title_key = ? WHERE id = ?')
        .run('\u0000first', before[0] ?? '');
    } finally {
      other.close();
    }
    expect(ids({}, 'title_asc', paging)).toEqual(direct({}, 'title_asc', paging));
    expect(ids({}, 'title_asc', paging)).not.toContain(before[0]);
    const filters = { labels: ['popular'] };
    const counted = store.list.count(filters);
    const other2 = new BetterSqlite3(join(dir, 'folio.db'));
    try {
      other2.prepare('DELETE FROM webpage_labels WHERE webpage_id = ?').run(before[1] ?? '');
    } finally {
      other2.close();
    }
    expect(store.list.count(filters)).toBe(directCount(filters));
    expect(directCount(filters)).toBeLessThanOrEqual(counted);
  });
});

/** Ids no other test uses (the writes above add pages after PAGES). */
const WORKER_PAGES = 1_000_000;

describe('pages recorded by the ingest worker', () => {
  it('are in the deep pages and counts read right after', async () => {
    const paging = { page: Math.floor(KEEP_IDS_FROM_OFFSET / 10) + 2, perPage: 10 };
    const filters = { exts: ['html' as const] };
    // Kept first, so that the worker's pages must correct them.
    ids(filters, 'first_add_time_asc', paging);
    ids({}, 'title_asc', paging);
    store.list.count(filters);
    await Promise.all(
      Array.from({ length: 12 }, (_, k) => {
        const page = {
          ...newPage(WORKER_PAGES + k),
          title: `\u0000worker ${k}`,
          ext: 'html' as const,
          link: `https://worker.example/${k}`,
          host: 'worker.example',
        };
        const bytes = new Uint8Array(Buffer.from(`the file of worker page ${k}`));
        return store.ingest.addHeld(new StagedBytes(bytes), page.id, Promise.resolve(page), 1);
      }),
    );
    expect(ids(filters, 'first_add_time_asc', paging)).toEqual(
      direct(filters, 'first_add_time_asc', paging),
    );
    expect(ids({}, 'title_asc', paging)).toEqual(direct({}, 'title_asc', paging));
    expect(store.list.count(filters)).toBe(directCount(filters));
    const theirs = { hosts: ['worker.example'] };
    expect(new Set(ids(theirs, 'title_asc', { page: 1, perPage: 20 }))).toEqual(
      new Set(Array.from({ length: 12 }, (_, k) => idOf(WORKER_PAGES + k))),
    );
    expect(store.list.count(theirs)).toBe(12);
  });
});

describe('PageChanges', () => {
  it('lists the pages another connection changed, once each, and forgets what the log dropped', () => {
    const changes = new PageChanges(store.db);
    const mark = changes.mark();
    const other = new BetterSqlite3(join(dir, 'folio.db'));
    try {
      const setRead = other.prepare('UPDATE webpages SET read = ? WHERE id = ?');
      other.transaction(() => {
        for (const n of [5, 6, 5]) setRead.run(n % 2, idOf(n));
      })();
      expect(changes.since(mark, 64)?.sort()).toEqual([idOf(5), idOf(6)]);
      expect(changes.since(mark, 1)).toBeUndefined();
      // More changes than the log keeps (8,192 at most): the mark is too old to say.
      other.transaction(() => {
        for (let k = 0; k < 9_000; k++) setRead.run(k % 2, idOf(7));
      })();
      expect(changes.since(mark, 64)).toBeUndefined();
      expect(changes.since(changes.mark(), 64)).toEqual([]);
    } finally {
      other.close();
    }
  });
});

describe('IdPrefixCache with page changes', () => {
  it('corrects a kept prefix for the changed pages instead of reading it again', () => {
    let generation = 0;
    let changed: string[] | undefined = [];
    const changes = {
      mark: (): ChangeMark => ({ seq: generation }),
      since: () => changed,
    };
    const cache = new IdPrefixCache({ current: () => String(generation) }, undefined, changes);
    const source = Array.from({ length: 100 }, (_, n) => `id${n}`);
    const loads: number[] = [];
    const load = (count: number) => {
      loads.push(count);
      return source.slice(0, count);
    };
    const patches: string[][] = [];
    const patch = (kept: readonly string[], _complete: boolean, pages: readonly string[]) => {
      patches.push([...pages]);
      return kept.filter((id) => !pages.includes(id));
    };
    expect(cache.slice('q', 10, 12, 20, load, patch)).toEqual(['id10', 'id11']);
    generation++;
    changed = ['id10'];
    expect(cache.slice('q', 10, 12, 20, load, patch)).toEqual(['id11', 'id12']);
    expect(loads).toEqual([32]);
    expect(patches).toEqual([['id10']]);
    // Unknown changes (too many, or older than the log): read again.
    generation++;
    changed = undefined;
    expect(cache.slice('q', 10, 12, 20, load, patch)).toEqual(['id10', 'id11']);
    expect(loads).toEqual([32, 32]);
  });
});
