import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { fails, ok, upload } from './support/api.ts';
import { seed, type SeedPage } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/**
 * A Wednesday noon, server local time. p3 is on the Sunday before last week, p4 on the Sunday
 * ending last week, so a week that started on Sunday would be caught.
 */
const NOW = new Date(2026, 5, 17, 12, 0).getTime();
const at = (month: number, day: number, hour = 10) => new Date(2026, month, day, hour).getTime();

const PAGES: SeedPage[] = [
  {
    key: 'p1',
    title: 'Alpha',
    ext: 'html',
    link: 'https://a.example/same',
    liked: true,
    labels: ['x', 'y'],
    addedAt: at(3, 20),
  },
  {
    key: 'p2',
    title: 'Same title',
    ext: 'mhtml',
    link: 'https://b.example/1',
    read: true,
    labels: ['x'],
    highlights: 1,
    addedAt: at(4, 10),
  },
  {
    key: 'p3',
    title: 'Gamma',
    ext: 'html',
    link: 'https://a.example/same',
    labels: ['y'],
    highlights: 2,
    addedAt: at(5, 7),
  },
  {
    key: 'p4',
    title: 'same title',
    ext: 'webarchive',
    labels: ['x', 'y', 'z'],
    highlights: 3,
    addedAt: at(5, 14),
  },
  {
    key: 'p5',
    title: 'Same title',
    ext: 'html',
    link: 'http://c.example:8080/',
    liked: true,
    read: true,
    addedAt: at(5, 15),
  },
  {
    key: 'p6',
    title: 'Zeta',
    ext: 'html',
    link: 'https://b.example/2',
    read: true,
    labels: ['z'],
    highlights: 1,
    addedAt: at(5, 16, 9),
  },
  { key: 'p7', title: 'eta', ext: 'mhtml', addedAt: at(5, 17, 8) },
];
const ALL = PAGES.map((page) => page.key);

let server: TestServer;
let seeded: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seed(server, PAGES);
  server.clock.set(NOW);
});

afterAll(async () => {
  await server.close();
});

type Filter = Record<string, unknown>;

/** Keys of the pages a (temporary) view with these filters selects, sorted by key. */
async function select(filters: Filter[], match: 'and' | 'or' = 'and'): Promise<string[]> {
  const view = await ok(server, 'createView', {
    body: { title: 'probe', filters, match } as never,
  });
  const { webpages } = await ok(server, 'listViewWebpages', { params: { view_id: view.id } });
  await ok(server, 'deleteView', { params: { view_id: view.id } });
  return seeded.keys(webpages).sort();
}

describe('view CRUD', () => {
  it('creates a view with the defaults and ids on its filters', async () => {
    server.clock.set(NOW);
    const view = await ok(server, 'createView', {
      body: { title: 'Defaults', filters: [{ type: 0, key: 'liked', operator: true }] },
    });
    expect(view).toMatchObject({
      title: 'Defaults',
      description: '',
      createdAt: NOW,
      enableLimit: false,
      limit: 25,
      sort: 4,
      match: 'and',
    });
    expect(view.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(view.filters).toHaveLength(1);
    expect(view.filters[0]).toMatchObject({ type: 0, key: 'liked', operator: true });
    expect(view.filters[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ok(server, 'getView', { params: { view_id: view.id } })).toEqual(view);
    await ok(server, 'deleteView', { params: { view_id: view.id } });
  });

  it('stores every field given', async () => {
    const body = {
      title: 'Everything',
      description: 'all of it',
      sort: 1,
      limit: 3,
      enableLimit: true,
      match: 'or' as const,
      filters: [
        { type: 2 as const, key: 'host' as const, operator: false, rightOperand: ['a.example'] },
        { type: 1 as const, key: 'annotation' as const, operator: 2 as const, rightOperand: 1 },
      ],
    };
    const view = await ok(server, 'createView', { body });
    const { filters, ...rest } = body;
    expect(view).toMatchObject(rest);
    expect(view.filters.map(({ id: _id, ...filter }) => filter)).toEqual(filters);
    expect(new Set(view.filters.map((filter) => filter.id)).size).toBe(2);
    await ok(server, 'deleteView', { params: { view_id: view.id } });
  });

  it('lists live views, newest first', async () => {
    server.clock.set(NOW + 1000);
    const first = await ok(server, 'createView', { body: { title: 'first' } });
    server.clock.set(NOW + 2000);
    const second = await ok(server, 'createView', { body: { title: 'second' } });
    const third = await ok(server, 'createView', { body: { title: 'third (same ms)' } });
    const listed = await ok(server, 'listViews');
    expect(listed.map((view) => view.id)).toEqual([third.id, second.id, first.id]);
    await ok(server, 'deleteView', { params: { view_id: second.id } });
    const after = await ok(server, 'listViews');
    expect(after.map((view) => view.id)).toEqual([third.id, first.id]);
    for (const view of [first, third])
      await ok(server, 'deleteView', { params: { view_id: view.id } });
    expect(await ok(server, 'listViews')).toEqual([]);
    server.clock.set(NOW);
  });

  it('patches the given fields, filters included', async () => {
    const view = await ok(server, 'createView', {
      body: { title: 'Patch me', filters: [{ type: 0, key: 'liked', operator: true }] },
    });
    const patched = await ok(server, 'patchView', {
      params: { view_id: view.id },
      body: {
        title: 'Patched',
        description: 'd',
        sort: 2,
        limit: 9,
        enableLimit: true,
        match: 'or',
      },
    });
    expect(patched).toEqual({
      ...view,
      title: 'Patched',
      description: 'd',
      sort: 2,
      limit: 9,
      enableLimit: true,
      match: 'or',
    });
    const refiltered = await ok(server, 'patchView', {
      params: { view_id: view.id },
      body: { filters: [{ type: 0, key: 'read-status', operator: true }] },
    });
    expect(refiltered.filters).toHaveLength(1);
    expect(refiltered.filters[0]).toMatchObject({ key: 'read-status', operator: true });
    expect(refiltered.title).toBe('Patched');
    const pages = await ok(server, 'listViewWebpages', { params: { view_id: view.id } });
    expect(seeded.keys(pages.webpages).sort()).toEqual(['p2', 'p5', 'p6']);
    await ok(server, 'deleteView', { params: { view_id: view.id } });
  });

  it('soft-deletes: answers the view, then 404 everywhere', async () => {
    const view = await ok(server, 'createView', { body: { title: 'Doomed view' } });
    expect(await ok(server, 'deleteView', { params: { view_id: view.id } })).toEqual(view);
    const params = { view_id: view.id };
    const error = await fails(server, 'getView', 404, { params });
    expect(error).toEqual({
      success: false,
      error: 'not_found',
      message: `view ${view.id} not found`,
    });
    await fails(server, 'listViewWebpages', 404, { params });
    await fails(server, 'patchView', 404, { params, body: { title: 'x' } });
    await fails(server, 'deleteView', 404, { params });
    expect((await ok(server, 'listViews')).some((item) => item.id === view.id)).toBe(false);
  });

  it('is 404 for unknown views', async () => {
    const params = { view_id: '00000000-0000-4000-8000-000000000000' };
    await fails(server, 'getView', 404, { params });
    await fails(server, 'listViewWebpages', 404, { params });
  });

  it('refuses invalid views with a message naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body/title is required'],
      [{ title: '' }, 'body/title must not be empty'],
      [{ title: '   ' }, 'body/title must not be blank'],
      [{ title: 'x', sort: 7 }, 'body/sort must be <= 6'],
      [{ title: 'x', sort: -1 }, 'body/sort must be >= 0'],
      [{ title: 'x', sort: 1.5 }, 'body/sort must be an integer'],
      [{ title: 'x', limit: 0 }, 'body/limit must be >= 1'],
      [{ title: 'x', match: 'xor' }, 'body/match must be one of and, or'],
      [{ title: 'x', color: 'red' }, 'body/color is not allowed'],
      [
        { title: 'x', filters: [{ type: 0, key: 'stars', operator: true }] },
        'body/filters/0/key must be one of host, liked, read-status, annotation, first-add-time, label, link-duplicate, title-duplicate',
      ],
      [
        { title: 'x', filters: [{ type: 1, key: 'annotation', operator: 4, rightOperand: 1 }] },
        'body/filters/0/operator must be one of 0, 1, 2, 3',
      ],
      [
        { title: 'x', filters: [{ type: 1, key: 'first-add-time', operator: 0, rightOperand: 6 }] },
        'body/filters/0/rightOperand must be one of 0, 1, 2, 3, 4, 5',
      ],
      [
        { title: 'x', filters: [{ type: 2, key: 'host', operator: true }] },
        'body/filters/0/rightOperand is required',
      ],
      [
        { title: 'x', filters: [{ type: 1, key: 'liked', operator: true }] },
        'body/filters/0/type must be 0',
      ],
      [
        { title: 'x', filters: [{ key: 'liked', operator: true }] },
        'body/filters/0/type is required',
      ],
      [{ title: 'x', filters: [{ type: 0, operator: true }] }, 'body/filters/0/key is required'],
      [{ title: 'x', filters: ['liked'] }, 'body/filters/0 must be an object'],
      [{ title: 'x', limit: 100001 }, 'body/limit must be <= 100000'],
      [{ title: 'x', limit: 2.5 }, 'body/limit must be an integer'],
      [{ title: 'x', enableLimit: 'yes' }, 'body/enableLimit must be a boolean'],
      [{ title: 'x', sort: '1' }, 'body/sort must be an integer'],
      [
        { title: 'x', filters: [{ type: 2, key: 'label', operator: 4, rightOperand: ['a'] }] },
        'body/filters/0/operator must be one of 0, 1, 2, 3',
      ],
      [
        { title: 'x', filters: [{ type: 2, key: 'host', operator: 1, rightOperand: ['a'] }] },
        'body/filters/0/operator must be a boolean',
      ],
      [
        { title: 'x', filters: [{ type: 1, key: 'annotation', operator: 0, rightOperand: -1 }] },
        'body/filters/0/rightOperand must be >= 0',
      ],
      [
        { title: 'x', filters: [{ type: 1, key: 'first-add-time', operator: 2, rightOperand: 0 }] },
        'body/filters/0/operator must be one of 0, 1',
      ],
      [
        { title: 'x', filters: [{ type: 0, key: 'title-duplicate' }] },
        'body/filters/0/operator is required',
      ],
    ];
    for (const [body, message] of cases) {
      const error = await fails(server, 'createView', 400, { body });
      expect(error.message).toBe(message);
    }
    const view = await ok(server, 'createView', { body: { title: 'valid' } });
    const patchCases: [unknown, string][] = [
      [{}, 'body must have at least one field'],
      [{ title: '' }, 'body/title must not be empty'],
      [{ limit: -3 }, 'body/limit must be >= 1'],
      [
        { filters: [{ type: 0, key: 'liked', operator: 'yes' }] },
        'body/filters/0/operator must be a boolean',
      ],
    ];
    for (const [body, message] of patchCases) {
      const error = await fails(server, 'patchView', 400, { params: { view_id: view.id }, body });
      expect(error.message).toBe(message);
    }
    await ok(server, 'deleteView', { params: { view_id: view.id } });
  });
});

describe('listViewWebpages filters', () => {
  it('host is / is not one of (pages without a link pass "is not")', async () => {
    expect(
      await select([{ type: 2, key: 'host', operator: true, rightOperand: ['a.example'] }]),
    ).toEqual(['p1', 'p3']);
    expect(
      await select([
        { type: 2, key: 'host', operator: true, rightOperand: ['a.example', 'C.example:8080'] },
      ]),
    ).toEqual(['p1', 'p3', 'p5']);
    expect(
      await select([{ type: 2, key: 'host', operator: false, rightOperand: ['a.example'] }]),
    ).toEqual(['p2', 'p4', 'p5', 'p6', 'p7']);
    expect(await select([{ type: 2, key: 'host', operator: true, rightOperand: [] }])).toEqual([]);
    expect(await select([{ type: 2, key: 'host', operator: false, rightOperand: [] }])).toEqual(
      ALL,
    );
  });

  it('liked and read-status', async () => {
    expect(await select([{ type: 0, key: 'liked', operator: true }])).toEqual(['p1', 'p5']);
    expect(await select([{ type: 0, key: 'liked', operator: false }])).toEqual([
      'p2',
      'p3',
      'p4',
      'p6',
      'p7',
    ]);
    expect(await select([{ type: 0, key: 'read-status', operator: true }])).toEqual([
      'p2',
      'p5',
      'p6',
    ]);
    expect(await select([{ type: 0, key: 'read-status', operator: false }])).toEqual([
      'p1',
      'p3',
      'p4',
      'p7',
    ]);
  });

  it('annotation =, ≠, >, <', async () => {
    const annotation = (operator: number, rightOperand: number) =>
      select([{ type: 1, key: 'annotation', operator, rightOperand }]);
    expect(await annotation(0, 1)).toEqual(['p2', 'p6']);
    expect(await annotation(1, 0)).toEqual(['p2', 'p3', 'p4', 'p6']);
    expect(await annotation(2, 1)).toEqual(['p3', 'p4']);
    expect(await annotation(3, 1)).toEqual(['p1', 'p5', 'p7']);
  });

  it('first-add-time before / after the start of today … last month', async () => {
    const added = (operator: number, rightOperand: number) =>
      select([{ type: 1, key: 'first-add-time', operator, rightOperand }]);
    expect(await added(1, 0)).toEqual(['p7']);
    expect(await added(0, 0)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect(await added(1, 3)).toEqual(['p6', 'p7']);
    expect(await added(0, 3)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(await added(1, 1)).toEqual(['p5', 'p6', 'p7']);
    expect(await added(0, 1)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(await added(1, 4)).toEqual(['p4', 'p5', 'p6', 'p7']);
    expect(await added(0, 4)).toEqual(['p1', 'p2', 'p3']);
    expect(await added(1, 2)).toEqual(['p3', 'p4', 'p5', 'p6', 'p7']);
    expect(await added(0, 2)).toEqual(['p1', 'p2']);
    expect(await added(1, 5)).toEqual(['p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    expect(await added(0, 5)).toEqual(['p1']);
  });

  it('label has all / has any / lacks one / has none', async () => {
    const label = (operator: number, rightOperand: string[]) =>
      select([{ type: 2, key: 'label', operator, rightOperand }]);
    expect(await label(0, ['x', 'y'])).toEqual(['p1', 'p4']);
    expect(await label(1, ['x', 'z'])).toEqual(['p1', 'p2', 'p4', 'p6']);
    expect(await label(2, ['x', 'y'])).toEqual(['p2', 'p3', 'p5', 'p6', 'p7']);
    expect(await label(3, ['x', 'z'])).toEqual(['p3', 'p5', 'p7']);
    expect(await label(0, [])).toEqual(ALL);
    expect(await label(3, [])).toEqual(ALL);
  });

  it('link and title duplicates (exact, among live pages)', async () => {
    expect(await select([{ type: 0, key: 'link-duplicate', operator: true }])).toEqual([
      'p1',
      'p3',
    ]);
    expect(await select([{ type: 0, key: 'link-duplicate', operator: false }])).toEqual([
      'p2',
      'p4',
      'p5',
      'p6',
      'p7',
    ]);
    expect(await select([{ type: 0, key: 'title-duplicate', operator: true }])).toEqual([
      'p2',
      'p5',
    ]);
    expect(await select([{ type: 0, key: 'title-duplicate', operator: false }])).toEqual([
      'p1',
      'p3',
      'p4',
      'p6',
      'p7',
    ]);
  });

  it('match "and" needs every filter, "or" one of them', async () => {
    const filters = [
      { type: 0, key: 'liked', operator: true },
      { type: 0, key: 'read-status', operator: true },
    ];
    expect(await select(filters, 'and')).toEqual(['p5']);
    expect(await select(filters, 'or')).toEqual(['p1', 'p2', 'p5', 'p6']);
  });

  it('combines filters of different kinds in both modes', async () => {
    const filters = [
      { type: 2, key: 'label', operator: 1, rightOperand: ['y'] },
      { type: 1, key: 'annotation', operator: 2, rightOperand: 0 },
      { type: 2, key: 'host', operator: false, rightOperand: ['b.example'] },
    ];
    // Labelled y: p1 p3 p4; with highlights: p2 p3 p4 p6; host not b.example: all but p2 p6.
    expect(await select(filters, 'and')).toEqual(['p3', 'p4']);
    expect(await select(filters, 'or')).toEqual(ALL);
    const narrow = [
      { type: 0, key: 'title-duplicate', operator: true },
      { type: 1, key: 'first-add-time', operator: 1, rightOperand: 4 },
      { type: 2, key: 'label', operator: 3, rightOperand: ['x', 'y', 'z'] },
    ];
    // Duplicate title: p2 p5; added since last week: p4–p7; no label at all: p5 p7.
    expect(await select(narrow, 'and')).toEqual(['p5']);
    expect(await select(narrow, 'or')).toEqual(['p2', 'p4', 'p5', 'p6', 'p7']);
  });

  it('a filter given twice is the same as once; "or" of opposites is every page', async () => {
    const liked = { type: 0, key: 'liked', operator: true };
    expect(await select([liked, liked])).toEqual(['p1', 'p5']);
    expect(await select([liked, { ...liked, operator: false }], 'and')).toEqual([]);
    expect(await select([liked, { ...liked, operator: false }], 'or')).toEqual(ALL);
  });

  it('label values are exact (no prefix or case folding) and hosts ignore case', async () => {
    expect(
      await select([{ type: 2, key: 'label', operator: 1, rightOperand: ['X', 'x '] }]),
    ).toEqual([]);
    expect(
      await select([{ type: 2, key: 'host', operator: true, rightOperand: ['B.EXAMPLE'] }]),
    ).toEqual(['p2', 'p6']);
    expect(
      await select([{ type: 2, key: 'host', operator: true, rightOperand: ['c.example'] }]),
    ).toEqual([]);
  });

  it('no filters select every page, whatever the match', async () => {
    expect(await select([], 'and')).toEqual(ALL);
    expect(await select([], 'or')).toEqual(ALL);
  });
});

describe('listViewWebpages order and limit', () => {
  async function ordered(sort: number, extra: Record<string, unknown> = {}) {
    const view = await ok(server, 'createView', { body: { title: 'order', sort, ...extra } });
    const { webpages } = await ok(server, 'listViewWebpages', { params: { view_id: view.id } });
    await ok(server, 'deleteView', { params: { view_id: view.id } });
    return webpages;
  }
  const byTitle = () =>
    PAGES.map((page) => ({
      key: page.key,
      title: page.title.toLowerCase(),
      id: seeded.id(page.key),
    }))
      .sort((a, b) => (a.title === b.title ? (a.id < b.id ? -1 : 1) : a.title < b.title ? -1 : 1))
      .map((page) => page.key);

  it('sorts 1–6', async () => {
    expect(seeded.keys(await ordered(1))).toEqual(byTitle());
    expect(seeded.keys(await ordered(2))).toEqual(byTitle().reverse());
    expect(seeded.keys(await ordered(3))).toEqual(ALL);
    expect(seeded.keys(await ordered(4))).toEqual([...ALL].reverse());
    expect((await ordered(5)).map((page) => page.annotateCount)).toEqual([0, 0, 0, 1, 1, 2, 3]);
    expect((await ordered(6)).map((page) => page.annotateCount)).toEqual([3, 2, 1, 1, 0, 0, 0]);
  });

  it('sort 0 is random: every page, in changing orders', async () => {
    const orders = new Set<string>();
    for (let attempt = 0; attempt < 20 && orders.size < 2; attempt++) {
      const pages = seeded.keys(await ordered(0));
      expect([...pages].sort()).toEqual(ALL);
      orders.add(pages.join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it('applies the limit only when enabled', async () => {
    expect(seeded.keys(await ordered(3, { limit: 2, enableLimit: true }))).toEqual(['p1', 'p2']);
    expect(seeded.keys(await ordered(3, { limit: 2, enableLimit: false }))).toEqual(ALL);
    expect(seeded.keys(await ordered(4, { limit: 100, enableLimit: true }))).toEqual(
      [...ALL].reverse(),
    );
  });

  it('limits after filtering and sorting', async () => {
    const filters = [{ type: 2, key: 'label', operator: 1, rightOperand: ['x', 'z'] }];
    const pages = await ordered(6, { filters, limit: 2, enableLimit: true });
    // Most highlights first: p4 (3), then p2 and p6 (1 each), ties by id, last first.
    const tie = seeded.id('p2') > seeded.id('p6') ? 'p2' : 'p6';
    expect(seeded.keys(pages)).toEqual(['p4', tie]);
    expect(pages.map((page) => page.annotateCount)).toEqual([3, 1]);
  });

  it('random sort with a limit: that many distinct pages of the view', async () => {
    const seen = new Set<string>();
    for (let attempt = 0; attempt < 20; attempt++) {
      const pages = seeded.keys(await ordered(0, { limit: 3, enableLimit: true }));
      expect(pages).toHaveLength(3);
      expect(new Set(pages).size).toBe(3);
      for (const key of pages) seen.add(key);
    }
    // Over 20 draws of 3 out of 7, more than 3 pages show up.
    expect(seen.size).toBeGreaterThan(3);
  });

  it('items carry lastModified, deleted 0 and highlights', async () => {
    const pages = await ordered(3);
    const p4 = pages.find((page) => page.id === seeded.id('p4'));
    expect(p4).toMatchObject({ deleted: 0, annotateCount: 3, labels: ['x', 'y', 'z'] });
    expect(pages.find((page) => page.id === seeded.id('p7'))?.link).toBeNull();
    expect(p4?.highlights?.map((highlight) => highlight.text)).toEqual([
      'mark 0',
      'mark 1',
      'mark 2',
    ]);
    expect(typeof p4?.lastModified).toBe('number');
    expect(pages.every((page) => 'excerpt' in page === false)).toBe(true);
  });
});

describe('duplicates and deletes', () => {
  it('a deleted page is no longer a duplicate, and leaves every view', async () => {
    const p3 = seeded.id('p3');
    await ok(server, 'deleteWebpage', { params: { id: p3 } });
    try {
      expect(await select([{ type: 0, key: 'link-duplicate', operator: true }])).toEqual([]);
      expect(await select([])).toEqual(ALL.filter((key) => key !== 'p3'));
    } finally {
      const file = (await import('./support/seed.ts')).fileFor(PAGES[2] as SeedPage);
      await ok(server, 'uploadWebpage', {
        body: { content: file.toString('base64'), ext: 'html' },
      });
    }
    expect(await select([{ type: 0, key: 'link-duplicate', operator: true }])).toEqual([
      'p1',
      'p3',
    ]);
  });
});

describe('previewView (Folio extension)', () => {
  it("answers the count and the first webpages in the view's order, storing nothing", async () => {
    const before = await ok(server, 'listViews');
    const preview = await ok(server, 'previewView', {
      body: {
        title: 'Unsaved',
        sort: 1,
        filters: [{ type: 2, key: 'label', operator: 1, rightOperand: ['x', 'z'] }],
      },
    });
    expect(preview.count).toBe(4);
    expect(preview.webpages.map((page) => page.title.toLowerCase())).toEqual([
      'alpha',
      'same title',
      'same title',
      'zeta',
    ]);
    expect(preview.webpages[0]).toMatchObject({ deleted: 0, labels: ['x', 'y'] });
    expect(await ok(server, 'listViews')).toEqual(before);
  });

  it('applies the defaults, the match and the limit like a saved view', async () => {
    const filters = [
      { type: 0, key: 'liked', operator: true },
      { type: 0, key: 'read-status', operator: true },
    ];
    const or = await ok(server, 'previewView', {
      body: { title: 'p', filters, match: 'or' } as never,
    });
    expect(or.count).toBe(4);
    // Default sort 4: newest first.
    expect(seeded.keys(or.webpages)).toEqual(['p6', 'p5', 'p2', 'p1']);
    const and = await ok(server, 'previewView', { body: { title: 'p', filters } as never });
    expect(seeded.keys(and.webpages)).toEqual(['p5']);
    const limited = await ok(server, 'previewView', {
      body: { title: 'p', sort: 3, limit: 2, enableLimit: true },
    });
    expect(limited.count).toBe(2);
    expect(seeded.keys(limited.webpages)).toEqual(['p1', 'p2']);
    const unlimited = await ok(server, 'previewView', {
      body: { title: 'p', sort: 3, limit: 2, enableLimit: false },
    });
    expect(unlimited.count).toBe(7);
    expect(seeded.keys(unlimited.webpages)).toEqual(ALL);
    const none = await ok(server, 'previewView', {
      body: { title: 'p', filters: [{ type: 2, key: 'host', operator: true, rightOperand: [] }] },
    });
    expect(none).toEqual({ count: 0, webpages: [] });
  });

  it('shows at most 10 webpages but counts them all', async () => {
    const big = await startTestServer();
    try {
      for (let n = 0; n < 13; n++) {
        await upload(big, makeHtml({ title: `Page ${String(n).padStart(2, '0')}` }), 'html');
      }
      const preview = await ok(big, 'previewView', { body: { title: 'p', sort: 1 } });
      expect(preview.count).toBe(13);
      expect(preview.webpages.map((page) => page.title)).toEqual(
        Array.from({ length: 10 }, (_, n) => `Page ${String(n).padStart(2, '0')}`),
      );
      const limited = await ok(big, 'previewView', {
        body: { title: 'p', sort: 2, limit: 12, enableLimit: true },
      });
      expect(limited.count).toBe(12);
      expect(limited.webpages).toHaveLength(10);
      expect(limited.webpages[0]?.title).toBe('Page 12');
    } finally {
      await big.close();
    }
  });

  it('validates the body like createView, and needs the token', async () => {
    const error = await fails(server, 'previewView', 400, {
      body: { title: 'p', filters: [{ type: 0, key: 'stars', operator: true }] },
    });
    expect(error.message).toBe(
      'body/filters/0/key must be one of host, liked, read-status, annotation, first-add-time, label, link-duplicate, title-duplicate',
    );
    expect(
      (await fails(server, 'previewView', 400, { body: { title: 'p', sort: 9 } })).message,
    ).toBe('body/sort must be <= 6');
    await fails(server, 'previewView', 401, { body: { title: 'p' }, token: null });
  });
});

describe('the HamsterBase switch', () => {
  it('FOLIO_IGNORE_VIEW_FILTER_PATCH makes PATCH ignore filters', async () => {
    const quirky = await startTestServer({ ignoreViewFilterPatch: true });
    try {
      const view = await ok(quirky, 'createView', {
        body: { title: 'q', filters: [{ type: 0, key: 'liked', operator: true }] },
      });
      const patched = await ok(quirky, 'patchView', {
        params: { view_id: view.id },
        body: { title: 'renamed', filters: [] },
      });
      expect(patched.title).toBe('renamed');
      expect(patched.filters).toEqual(view.filters);
    } finally {
      await quirky.close();
    }
  });
});
