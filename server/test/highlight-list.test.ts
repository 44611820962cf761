// Folio's listHighlights extension: every highlight of the live webpages, newest first, paged,
// searched over text and notes, filtered by the page's labels and host.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { HighlightList, type HighlightFilters } from '../src/store/highlight-list.ts';
import { openStore } from '../src/store/store.ts';
import { call, fails, ok, upload } from './support/api.ts';
import { fileFor, seed, type Seeded } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 1, 1);
const API = '/public/api/v1';

let server: TestServer;
let seeded: Seeded;
/** Highlight ids by name, in the order made. */
const made = new Map<string, string>();

async function highlight(
  page: string,
  name: string,
  at: number,
  text: string,
  note?: string,
): Promise<void> {
  server.clock.set(at);
  const highlightId = await ok(server, 'createHighlight', {
    params: { id: seeded.id(page) },
    body: {
      text,
      textBefore: `before ${name}`,
      textAfter: `after ${name}`,
      ...(note ? { note } : {}),
    },
  });
  made.set(name, highlightId);
}

const names = (items: readonly { highlight: { highlightId: string } }[]) => {
  const byId = new Map([...made].map(([name, id]) => [id, name]));
  return items.map((item) => byId.get(item.highlight.highlightId) ?? item.highlight.highlightId);
};

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seed(server, [
    {
      key: 'cafe',
      title: 'Café notes',
      ext: 'html',
      link: 'https://food.example/cafe',
      labels: ['food', 'paris'],
      addedAt: T0,
    },
    {
      key: 'rust',
      title: 'Rust',
      ext: 'mhtml',
      link: 'http://code.example:8080/rust',
      labels: ['code'],
      addedAt: T0 + DAY,
    },
    { key: 'bare', title: 'No link', ext: 'html', labels: ['food'], addedAt: T0 + 2 * DAY },
    { key: 'gone', title: 'Deleted', ext: 'html', link: 'https://food.example/gone', addedAt: T0 },
  ]);
  await highlight('cafe', 'croissant', T0 + 10, 'Le croissant du matin', 'Crème brûlée too');
  await highlight('rust', 'borrow', T0 + 20, 'The borrow checker', 'ask about 100% safety');
  await highlight('bare', 'plain', T0 + 30, 'Plain words here');
  await highlight('gone', 'lost', T0 + 40, 'A croissant lost with its page');
  // Same edit time: the one made later comes first.
  await highlight('cafe', 'tie-a', T0 + 50, 'Tie one');
  await highlight('rust', 'tie-b', T0 + 50, 'Tie two', 'a_b');
  await ok(server, 'deleteWebpage', { params: { id: seeded.id('gone') } });
  // Editing a note moves the highlight to the top (its edit time).
  server.clock.set(T0 + 60);
  await ok(server, 'patchHighlight', {
    params: { id: seeded.id('cafe'), highlight_id: made.get('croissant')! },
    body: { note: 'Crème brûlée too, édité' },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('listHighlights (Folio extension)', () => {
  it('lists the highlights of live pages newest first, each with its page', async () => {
    const data = await ok(server, 'listHighlights');
    expect(names(data.highlights)).toEqual(['croissant', 'tie-b', 'tie-a', 'plain', 'borrow']);
    expect(data.hasNext).toBe(false);
    const first = data.highlights[0]!;
    expect(first.highlight).toEqual({
      highlightId: made.get('croissant'),
      type: 1,
      marker: { meta: { textBefore: 'before croissant', textAfter: 'after croissant' } },
      text: 'Le croissant du matin',
      note: 'Crème brûlée too, édité',
      editTime: T0 + 60,
    });
    expect(first.webpage).toEqual({
      id: seeded.id('cafe'),
      title: 'Café notes',
      link: 'https://food.example/cafe',
      host: 'food.example',
      labels: ['food', 'paris'],
      firstAddTime: T0,
    });
    const bare = data.highlights.find((item) => item.webpage.id === seeded.id('bare'));
    expect(bare?.webpage).toMatchObject({ link: null, host: null });
    expect(bare?.highlight).not.toHaveProperty('note');
  });

  it('pages with per_page and page, and says whether another page follows', async () => {
    const pages: string[][] = [];
    for (let page = 1; page <= 3; page++) {
      const data = await ok(server, 'listHighlights', { query: { per_page: 2, page } });
      pages.push(names(data.highlights));
      expect(data.hasNext).toBe(page < 3);
    }
    expect(pages).toEqual([['croissant', 'tie-b'], ['tie-a', 'plain'], ['borrow']]);
    const past = await ok(server, 'listHighlights', { query: { per_page: 2, page: 4 } });
    expect(past).toEqual({ highlights: [], hasNext: false });
    const far = await ok(server, 'listHighlights', {
      query: { per_page: 200, page: Number.MAX_SAFE_INTEGER },
    });
    expect(far).toEqual({ highlights: [], hasNext: false });
  });

  it('searches text and notes without case or accents; every word must match', async () => {
    const search = async (q: string) =>
      names((await ok(server, 'listHighlights', { query: { q } })).highlights);
    expect(await search('CROISSANT')).toEqual(['croissant']); // the deleted page's is left out
    expect(await search('creme brulee')).toEqual(['croissant']); // the note, accents folded
    expect(await search('edite')).toEqual(['croissant']);
    expect(await search('checker safety')).toEqual(['borrow']); // text and note together
    expect(await search('checker nowhere')).toEqual([]);
    expect(await search('tie')).toEqual(['tie-b', 'tie-a']);
    // Short words and wildcards are text: `%` and `_` match only themselves.
    expect(await search('0%')).toEqual(['borrow']);
    expect(await search('_')).toEqual(['tie-b']);
    expect(await search('%')).toEqual(['borrow']);
    expect(await search('"the borrow"')).toEqual([]);
    expect(await search('   ')).toEqual(['croissant', 'tie-b', 'tie-a', 'plain', 'borrow']);
  });

  it('filters by the page: every label given, any host given', async () => {
    const filter = async (query: { labels?: string[]; host?: string[]; q?: string }) =>
      names((await ok(server, 'listHighlights', { query })).highlights);
    expect(await filter({ labels: ['food'] })).toEqual(['croissant', 'tie-a', 'plain']);
    expect(await filter({ labels: ['food', 'paris'] })).toEqual(['croissant', 'tie-a']);
    expect(await filter({ labels: ['food', 'code'] })).toEqual([]);
    expect(await filter({ host: ['code.example:8080'] })).toEqual(['tie-b', 'borrow']);
    expect(await filter({ host: ['code.example:8080', 'food.example'] })).toEqual([
      'croissant',
      'tie-b',
      'tie-a',
      'borrow',
    ]);
    expect(await filter({ host: ['food.example'], q: 'tie' })).toEqual(['tie-a']);
  });

  it('leaves out the highlights of a deleted page, and shows them again when it is restored', async () => {
    const pagesOf = async () =>
      (await ok(server, 'listHighlights', { query: { per_page: 200 } })).highlights.map(
        (item) => item.webpage.id,
      );
    expect(await pagesOf()).not.toContain(seeded.id('gone'));
    // Uploading the same bytes again restores the page with its highlights.
    await upload(server, fileFor({ key: 'gone', title: 'Deleted', ext: 'html' }), 'html');
    expect(await pagesOf()).toContain(seeded.id('gone'));
    await ok(server, 'deleteWebpage', { params: { id: seeded.id('gone') } });
    expect(await pagesOf()).not.toContain(seeded.id('gone'));
  });

  it('refuses a request without a token, however the path is spelled', async () => {
    await fails(server, 'listHighlights', 401, { token: null });
    for (const path of [
      `${API}/highlights`,
      `${API}/%68ighlights`,
      `/public/api/v1/highlight%73`,
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(401);
      const allowed = await fetch(`${server.url}${path}?per_page=1`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(allowed.status, path).toBe(200);
      const body = (await allowed.json()) as { data: { highlights: unknown[] } };
      expect(body.data.highlights).toHaveLength(1);
    }
  });

  it('refuses a page size over 200', async () => {
    const response = await call(server, 'listHighlights', { query: { per_page: 201 } });
    expect(response.status).toBe(400);
  });
});

describe('the two plans', () => {
  it('answer the same: scanning newest first, or finding the pages first', async () => {
    const db = new Database(join(server.dataDir, 'folio.db'), { readonly: true });
    try {
      const cases: HighlightFilters[] = [
        {},
        { labels: ['food'] },
        { labels: ['food', 'paris'], q: 'tie' },
        { hosts: ['CODE.example:8080', 'food.example'] },
        { hosts: ['food.example'], q: 'brulee' },
        { q: 'a' },
      ];
      for (const filters of cases) {
        const answers = (['scan', 'filter'] as const).map((plan) => {
          const { sql, params } = HighlightList.query(filters, { offset: 0, count: 10 }, plan);
          expect(sql).toContain(plan === 'scan' ? 'INDEXED BY' : 'FROM highlights h\n');
          return db
            .prepare(sql)
            .all(...params)
            .map((row) => (row as { id: string }).id);
        });
        expect(answers[0], JSON.stringify(filters)).toEqual(answers[1]);
        expect(answers[0]!.length).toBeGreaterThan(0);
      }
      // Few pages pass these filters (the facet counts): the pages go first.
      const list = new HighlightList(db);
      expect(list.plan({})).toBe('scan');
      expect(list.plan({ labels: ['food'] })).toBe('filter');
      expect(list.plan({ hosts: ['food.example'] })).toBe('filter');
    } finally {
      db.close();
    }
  });
});

describe('listHighlights as HamsterBase', () => {
  it('answers 404, as a server without the extension', async () => {
    const hamster = await startTestServer({ asHamsterBase: true });
    try {
      await fails(hamster, 'listHighlights', 404);
    } finally {
      await hamster.close();
    }
  });
});

describe('the highlight index', () => {
  it('is rebuilt from the highlights a database already has, and kept by triggers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-highlight-index-'));
    try {
      const store = await openStore(dir);
      const db = store.db;
      db.prepare(
        `INSERT INTO webpages (id, title, title_key, excerpt, ext, size, first_add_time,
           create_time, last_modified) VALUES ('p', 't', 't', '', 'html', 0, 0, 0, 0)`,
      ).run();
      const id = store.highlights.create(
        'p',
        { text: 'Ærøskøbing harbour', textBefore: '', textAfter: '' },
        1,
      );
      const list = new HighlightList(db);
      const found = (q: string) => list.list({ q }, { page: 1, perPage: 10 }).items.length;
      expect(found('aeroskobing')).toBe(0); // Æ and ø are letters of their own, not accents
      expect(found('harb')).toBe(1);
      store.highlights.setNote('p', id, 'Über den Hafen', 2);
      expect(found('uber hafen')).toBe(1);
      store.highlights.remove('p', id, 3);
      expect(found('harb')).toBe(0);
      expect(
        db
          .prepare("SELECT count(*) AS n FROM highlight_fts WHERE highlight_fts MATCH 'hafen'")
          .get(),
      ).toEqual({ n: 0 });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
