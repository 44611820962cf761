// The fast paths of views against the plain ones: the duplicate filters (kept by counts tables
// and triggers) against a direct computation over the pages, through every kind of change; and the
// JSON items made by SQLite against toViewListItem.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toViewListItem } from '../src/routes/serialize.ts';
import { MIGRATIONS, migrate } from '../src/store/migrations.ts';
import { openStore, type Store } from '../src/store/store.ts';
import type { ViewFilterInput, ViewMatch } from '../src/store/view-filters.ts';
import { ViewStore, type ViewQuery, type ViewSort } from '../src/store/views.ts';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-views-'));
  store = await openStore(dir);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 4, 20, 12);

function addPage(n: number, title: string, link: string | null, at = NOW - n * 60_000): string {
  const id = n.toString(16).padStart(64, '0');
  store.webpages.insert(
    {
      id,
      title,
      excerpt: '',
      link,
      host: link === null ? null : new URL(link).host,
      ext: 'html',
      size: 100 + n,
      createTime: at,
      text: title,
    },
    at,
  );
  return id;
}

function select(
  filters: ViewFilterInput[],
  match: ViewMatch = 'and',
  sort: ViewSort = 4,
): string[] {
  const view: ViewQuery = { filters, match, sort, limit: 25, enableLimit: false };
  return store.views.webpages(view, NOW).map((page) => page.id);
}

/** The duplicates as the filters define them: another live page with the same link / title. */
function expectedDuplicates(key: 'link' | 'title'): Set<string> {
  const live = store.db.prepare('SELECT id, link, title FROM webpages WHERE deleted = 0').all() as {
    id: string;
    link: string | null;
    title: string;
  }[];
  const result = new Set<string>();
  for (const page of live) {
    const value = page[key];
    if (value === null || value === '') continue;
    if (live.some((other) => other.id !== page.id && other[key] === value)) result.add(page.id);
  }
  return result;
}

function checkDuplicates(): void {
  const all = new Set(select([]));
  for (const key of ['link', 'title'] as const) {
    const expected = expectedDuplicates(key);
    const filter = (operator: boolean): ViewFilterInput => ({
      type: 0,
      key: `${key}-duplicate`,
      operator,
    });
    expect(new Set(select([filter(true)])), `${key} duplicates`).toEqual(expected);
    expect(new Set(select([filter(false)])), `${key} not duplicated`).toEqual(
      new Set([...all].filter((id) => !expected.has(id))),
    );
  }
}

describe('duplicate filters', () => {
  it('stay exact through uploads, edits, deletes and restores', () => {
    const titles = ['Same', 'same', 'Other', '', 'Ünïcode', 'Same '];
    const links = [null, 'https://a.example/x', 'https://a.example/X', 'https://b.example/x'];
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        title: fc.constantFrom(...titles),
        link: fc.constantFrom(...links),
      }),
      fc.record({
        kind: fc.constant('title' as const),
        page: fc.nat(),
        title: fc.constantFrom(...titles),
      }),
      fc.record({
        kind: fc.constant('link' as const),
        page: fc.nat(),
        link: fc.constantFrom(...links),
      }),
      fc.record({ kind: fc.constant('delete' as const), page: fc.nat() }),
      fc.record({ kind: fc.constant('restore' as const), page: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 25 }), (operations) => {
        store.db.exec('DELETE FROM webpages');
        const ids: string[] = [];
        operations.forEach((op, n) => {
          const id = ids.length === 0 ? undefined : ids[('page' in op ? op.page : 0) % ids.length];
          switch (op.kind) {
            case 'add':
              ids.push(addPage(n, op.title, op.link));
              break;
            case 'title':
              if (id) store.webpages.update(id, { title: op.title }, NOW);
              break;
            case 'link':
              if (id) {
                const host = op.link === null ? null : new URL(op.link).host;
                store.webpages.update(id, { link: { link: op.link, host } }, NOW);
              }
              break;
            case 'delete':
              if (id) store.webpages.softDelete(id, NOW);
              break;
            case 'restore':
              if (id) store.webpages.restore(id, NOW);
              break;
          }
        });
        checkDuplicates();
      }),
      { numRuns: 150 },
    );
    // Hard deletes (nothing does them today) keep the counts right too.
    store.db.exec('DELETE FROM webpages');
    expect(store.db.prepare('SELECT count(*) FROM link_counts').pluck().get()).toBe(0);
    expect(store.db.prepare('SELECT count(*) FROM title_counts').pluck().get()).toBe(0);
  });

  it('are counted from the pages already there when an archive is migrated', () => {
    const file = join(dir, 'old.db');
    const old = new BetterSqlite3(file);
    migrate(old, MIGRATIONS.slice(0, 2));
    const insert = old.prepare(
      `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size, first_add_time,
         create_time, deleted, last_modified)
       VALUES (?, ?, lower(?), '', ?, NULL, 'html', 1, 1, 1, ?, 1)`,
    );
    const rows: [string, string | null, number][] = [
      ['Twin', 'https://t.example/', 0],
      ['Twin', 'https://t.example/', 0],
      ['Twin', 'https://u.example/', 1],
      ['Alone', 'https://u.example/', 0],
      ['', null, 0],
      ['', null, 0],
    ];
    rows.forEach(([title, link, deleted], n) =>
      insert.run(n.toString(16).padStart(64, '0'), title, title, link, deleted),
    );
    migrate(old);
    const counts = (table: string, column: string) =>
      Object.fromEntries(
        (
          old.prepare(`SELECT ${column} AS value, live FROM ${table}`).all() as {
            value: string;
            live: number;
          }[]
        ).map((row) => [row.value, row.live]),
      );
    expect(counts('link_counts', 'link')).toEqual({
      'https://t.example/': 2,
      'https://u.example/': 1,
    });
    expect(counts('title_counts', 'title')).toEqual({ Twin: 2, Alone: 1 });
    old.close();
  });
});

describe('view items made by SQLite', () => {
  it('are exactly toViewListItem of the same pages, in the same order', () => {
    const a = addPage(
      1,
      'Première page "quoted" \\ back',
      'https://a.example:8443/p?q=1',
      NOW - 1000,
    );
    const b = addPage(2, 'Zebra 日本語 😀', null, NOW - 2000);
    const c = addPage(3, 'apple', 'https://c.example/', NOW - 3000);
    addPage(4, 'Deleted', 'https://d.example/', NOW - 4000);
    store.webpages.softDelete((4).toString(16).padStart(64, '0'), NOW);
    store.webpages.update(a, { liked: true, labels: ['zeta', 'alpha', 'ünï', 'x"y'] }, NOW);
    store.webpages.update(b, { read: true, labels: ['alpha'] }, NOW);
    store.highlights.create(
      a,
      { text: 'one', textBefore: 'be\nfore', textAfter: 'after' },
      NOW + 1,
    );
    store.highlights.create(
      a,
      { text: 'two', textBefore: '', textAfter: '', note: 'a note', tenThousandth: 1234 },
      NOW + 2,
    );
    store.highlights.create(
      c,
      { text: 'three', textBefore: 'x', textAfter: 'y', tenThousandth: 0.5 },
      NOW + 3,
    );
    // Enough pages that any reordering would show, with ties on every sort key.
    for (let n = 10; n < 400; n++) {
      const id = addPage(
        n,
        `Title ${(n * 7919) % 97}`,
        n % 3 === 0 ? null : `https://h${n % 5}.example/${n}`,
        NOW - ((n * 104729) % 50) * 1000,
      );
      if (n % 4 === 0)
        store.webpages.update(id, { labels: [`l${n % 3}`, 'alpha'], liked: n % 8 === 0 }, NOW);
      if (n % 9 === 0)
        store.highlights.create(id, { text: `h${n}`, textBefore: '', textAfter: '' }, NOW + n);
    }
    const views: ViewQuery[] = [
      ...([1, 2, 3, 4, 5, 6] as ViewSort[]).map((sort) => ({
        filters: [],
        match: 'and' as const,
        sort,
        limit: 25,
        enableLimit: false,
      })),
      { filters: [], match: 'and', sort: 1, limit: 2, enableLimit: true },
      {
        filters: [{ type: 2, key: 'label', operator: 1, rightOperand: ['alpha'] }],
        match: 'and',
        sort: 3,
        limit: 25,
        enableLimit: false,
      },
    ];
    // In chunks of the default size and of two pages (chunk boundaries keep the order).
    const stores = [store.views, new ViewStore(store.db, store.labels, store.highlights, 2)];
    for (const view of views) {
      const expected = store.views.webpages(view, NOW).map(toViewListItem);
      for (const viewStore of stores) {
        const chunks = viewStore
          .webpagesJson(ViewStore.webpagesQuery(view, NOW))
          .chunks.map((chunk) => chunk.toString('utf8'));
        const made = JSON.parse(`[${chunks.join(',')}]`) as unknown;
        expect(made, JSON.stringify(view)).toEqual(expected);
      }
    }

    // Pages of a view (Folio's paging extension) are slices of the whole view, its limit first.
    for (const view of views.filter((candidate) => candidate.sort !== 0)) {
      for (const limited of [view, { ...view, enableLimit: true, limit: 5 }]) {
        const whole = store.views.webpages(limited, NOW).map(toViewListItem);
        for (const perPage of [1, 7, 50]) {
          const pages: unknown[] = [];
          for (let page = 1; ; page++) {
            const offset = (page - 1) * perPage;
            const { chunks, more } = store.views.webpagesJson(
              ViewStore.webpagesQuery(limited, NOW, { offset, count: perPage + 1 }),
              perPage,
            );
            const items = JSON.parse(`[${chunks.map(String).join(',')}]`) as unknown[];
            expect(items.length).toBeLessThanOrEqual(perPage);
            expect(more, `${JSON.stringify(limited)} page ${page}`).toBe(
              whole.length > offset + perPage,
            );
            pages.push(...items);
            if (!more) break;
          }
          expect(pages, `${JSON.stringify(limited)} by ${perPage}`).toEqual(whole);
        }
      }
    }
  });
});
