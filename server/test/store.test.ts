import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../src/store/blobs.ts';
import { openDatabase } from '../src/store/database.ts';
import { MIGRATIONS, migrate, SchemaVersionError } from '../src/store/migrations.ts';
import { titleKey } from '../src/store/records.ts';
import { SearchStore } from '../src/store/search.ts';
import { openStore, type Store } from '../src/store/store.ts';
import type { WebpageFilters } from '../src/store/webpage-filters.ts';
import {
  SORT_INDEX,
  WEBPAGE_ORDER,
  WebpageList,
  type WebpageSort,
} from '../src/store/webpage-list.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-store-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the database', () => {
  it('uses WAL, foreign keys and the latest schema version', () => {
    const db = openDatabase(join(dir, 'a.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('has the full-text index merge 8 segments at a time (fewer rewrites per upload)', async () => {
    const store = await openStore(join(dir, 'merge'));
    const setting = store.db
      .prepare("SELECT v FROM search.webpage_fts_config WHERE k = 'automerge'")
      .get() as { v: number } | undefined;
    expect(setting?.v).toBe(8);
    await store.close();
  });

  it('migrates once, and refuses a database from a newer server', () => {
    const db = new BetterSqlite3(join(dir, 'b.db'));
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(() => migrate(db)).not.toThrow();
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrate(db)).toThrow(SchemaVersionError);
    db.close();
  });

  it('applies only the migrations a database has not seen', () => {
    const db = new BetterSqlite3(join(dir, 'c.db'));
    migrate(db, ['CREATE TABLE one (x)']);
    migrate(db, ['CREATE TABLE one (x)', 'CREATE TABLE two (y)']);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all() as { name: string }[];
    expect(tables.map((table) => table.name)).toEqual(['one', 'two']);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });
});

describe('query plans', () => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(dir);
  });

  afterEach(async () => {
    await store.close();
  });

  function plan(query: { sql: string; params: unknown[] }): string[] {
    const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as {
      detail: string;
    }[];
    return rows.map((row) => row.detail);
  }

  const first = { page: 1, perPage: 30 };

  it('serves every list sort from its index, without sorting', () => {
    for (const sort of Object.keys(WEBPAGE_ORDER) as WebpageSort[]) {
      const steps = plan(WebpageList.query({}, sort, first));
      expect(steps, sort).toEqual([
        `SEARCH w USING COVERING INDEX ${SORT_INDEX[sort]} (deleted=?)`,
      ]);
    }
  });

  it('serves the filters from indexes and never reads page text', () => {
    const cases: [WebpageFilters, string][] = [
      [{ liked: true }, 'webpages_by_liked (deleted=? AND liked=?)'],
      [{ read: false }, 'webpages_by_read (deleted=? AND read=?)'],
      [{ exts: ['html'] }, 'webpages_by_ext (deleted=? AND ext=?)'],
      [{ hosts: ['example.com'] }, 'webpages_by_host (deleted=? AND host=?)'],
    ];
    for (const [filters, index] of cases) {
      const steps = plan(WebpageList.query(filters, 'first_add_time_desc', first));
      expect(steps[0], JSON.stringify(filters)).toBe(`SEARCH w USING COVERING INDEX ${index}`);
    }
    const everything: WebpageFilters = {
      liked: true,
      read: true,
      annotated: true,
      hosts: ['a', 'b'],
      labels: ['x', 'y'],
      exts: ['html', 'mhtml'],
    };
    for (const sort of Object.keys(WEBPAGE_ORDER) as WebpageSort[]) {
      for (const filters of [everything, { labels: ['x'] }, { annotated: false }]) {
        const steps = plan(WebpageList.query(filters, sort, first)).join('\n');
        expect(steps).not.toMatch(/SCAN (w|webpages|webpage_labels)\b/);
        expect(steps).not.toMatch(/webpage_texts|webpage_fts/);
        if (filters.labels) expect(steps).toMatch(/USING COVERING INDEX webpage_labels_by_label/);
      }
    }
  });

  it('finds the ids of a page from indexes alone (no row is read), whatever the filters', () => {
    // The planner's statistics of a 100,000-page archive (as ANALYZE wrote them for the bench's).
    const stats: [string, string][] = [
      ['webpages_by_added', '100000 50000 1 1 1 1 1 1 1'],
      ['webpages_by_title', '100000 50000 1 1 1 1 1 1 1'],
      ['webpages_by_annotations', '100000 50000 7143 1 1 1 1 1'],
      ['webpages_by_host', '100000 50000 44 1 1 1 1 1 1 1'],
      ['webpages_by_liked', '100000 50000 25000 1 1 1 1 1 1'],
      ['webpages_by_read', '100000 50000 25000 1 1 1 1 1 1'],
      ['webpages_by_ext', '100000 50000 16667 1 1 1 1 1 1'],
      ['webpages_list_by_id', '100000 1 1 1 1 1 1 1 1 1'],
      ['webpages_by_exact_title', '100000 1'],
      ['webpages_by_link', '91934 1'],
      ['sqlite_autoindex_webpages_1', '100000 1'],
    ];
    store.db.exec('ANALYZE; DELETE FROM sqlite_stat1');
    const insert = store.db.prepare(
      "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('webpages', ?, ?)",
    );
    for (const [index, stat] of stats) insert.run(index, stat);
    store.db
      .prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('webpage_labels', ?, ?)")
      .run('webpage_labels_by_label', '139083 696 1');
    store.db.exec('ANALYZE sqlite_schema');
    const combinations: WebpageFilters[] = [
      {},
      { labels: ['x'] },
      { labels: ['x', 'y'], read: false },
      { liked: true, hosts: ['a', 'b'], annotated: false },
      { read: false, exts: ['html', 'mhtml'], labels: ['x'] },
      { liked: true, read: true, annotated: true, hosts: ['a'], labels: ['x'], exts: ['html'] },
    ];
    for (const sort of Object.keys(WEBPAGE_ORDER) as WebpageSort[]) {
      for (const filters of combinations) {
        const steps = plan(WebpageList.query(filters, sort, { page: 500, perPage: 30 }));
        const onPages = steps.filter((step) => /^(SEARCH|SCAN) w\b/.test(step));
        expect(onPages.length, `${sort} ${JSON.stringify(filters)}`).toBeGreaterThan(0);
        for (const step of onPages) {
          expect(step, `${sort} ${JSON.stringify(filters)}`).toMatch(
            /^SEARCH w USING COVERING INDEX /,
          );
        }
      }
    }
  });

  it('searches through the full-text index', () => {
    const steps = plan(SearchStore.query({ include: ['hello'], exclude: [] }, {}, first)).join(
      '\n',
    );
    expect(steps).toMatch(/SCAN f VIRTUAL TABLE/);
    expect(steps).not.toMatch(/SCAN (w|t)\b/);
  });

  it('checks short terms and exclusions on what the index found, not on every page', () => {
    const query = { include: ['hello world', 'of'], exclude: ['zebra', 'x'] };
    const steps = plan(SearchStore.query(query, {}, first)).join('\n');
    expect(steps).toMatch(/SCAN f VIRTUAL TABLE/);
    expect(steps).not.toMatch(/SCAN (w|t)\b/);
  });
});

describe('titleKey', () => {
  it('ignores case and accents in every script', () => {
    expect(titleKey('Apple')).toBe(titleKey('apple'));
    expect(titleKey('Éclair')).toBe('eclair');
    expect(titleKey('ΣΟΦΙΑ')).toBe(titleKey('σοφια'));
    expect(titleKey('ＡＢＣ')).toBe('abc');
    const sorted = ['zebra', 'Éclair', 'apple', 'Date'].sort((a, b) =>
      titleKey(a) < titleKey(b) ? -1 : 1,
    );
    expect(sorted).toEqual(['apple', 'Date', 'Éclair', 'zebra']);
  });
});

describe('the blob store', () => {
  const id = 'ab'.padEnd(64, '0');

  it('stores files under <id[0..2]>/<id> and reads back the same bytes', async () => {
    const blobs = new BlobStore(join(dir, 'blobs'));
    await blobs.init();
    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(await blobs.has(id)).toBe(false);
    await blobs.put(id, bytes);
    expect(await blobs.has(id)).toBe(true);
    expect(readdirSync(join(dir, 'blobs', 'ab'))).toEqual([id]);
    expect((await blobs.read(id)).equals(bytes)).toBe(true);
    await blobs.put(id, bytes);
    expect(readdirSync(join(dir, 'blobs', 'ab'))).toEqual([id]);
  });

  it('removes temp files left by a crash on start', async () => {
    mkdirSync(join(dir, 'blobs', 'ab'), { recursive: true });
    writeFileSync(join(dir, 'blobs', 'ab', `.tmp-${id}-123`), 'partial');
    writeFileSync(join(dir, 'blobs', 'ab', id), 'complete');
    await new BlobStore(join(dir, 'blobs')).init();
    expect(readdirSync(join(dir, 'blobs', 'ab'))).toEqual([id]);
  });

  it('refuses ids that are not sha256 hex', () => {
    const blobs = new BlobStore(join(dir, 'blobs'));
    for (const bad of ['../../etc/passwd', 'AB'.padEnd(64, '0'), 'ab']) {
      expect(() => blobs.pathOf(bad)).toThrow();
    }
  });
});
