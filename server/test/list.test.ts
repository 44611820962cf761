import { describe, expect, it } from 'vitest';
import { fails, ok } from './support/api.ts';
import { useSeededServer, type SeedPage } from './support/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

/** Titles mix case on purpose: a binary sort would put every capital first. */
const PAGES: SeedPage[] = [
  {
    key: 'a',
    title: 'banana',
    ext: 'html',
    link: 'https://fruit.example/b',
    liked: true,
    labels: ['food', 'yellow'],
    highlights: 2,
    addedAt: T0 + 1 * DAY,
  },
  {
    key: 'b',
    title: 'Apple',
    ext: 'mhtml',
    link: 'https://fruit.example/a',
    read: true,
    labels: ['food'],
    addedAt: T0 + 2 * DAY,
  },
  {
    key: 'c',
    title: 'cherry',
    ext: 'webarchive',
    link: 'http://cherry.example:8080/c',
    liked: true,
    read: true,
    highlights: 1,
    addedAt: T0 + 3 * DAY,
  },
  {
    key: 'd',
    title: 'Date',
    ext: 'html',
    labels: ['yellow'],
    highlights: 3,
    addedAt: T0 + 4 * DAY,
  },
  { key: 'e', title: 'apple', ext: 'html', link: 'https://FRUIT.example/e', addedAt: T0 + 5 * DAY },
  {
    key: 'f',
    title: 'Éclair',
    ext: 'mhtml',
    link: 'https://bakery.example/f',
    labels: ['food', 'sweet'],
    addedAt: T0 + 6 * DAY,
  },
];

const archive = useSeededServer(PAGES);

async function list(query: Record<string, string | number | string[]> = {}) {
  const data = await ok(archive, 'listWebpages', { query });
  return archive.keys(data.webpages);
}

describe('listWebpages', () => {
  it('lists newest first by default, with list item fields only', async () => {
    const data = await ok(archive, 'listWebpages');
    expect(archive.keys(data.webpages)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    const item = data.webpages.find((page) => page.id === archive.id('a'));
    expect(Object.keys(item ?? {}).sort()).toEqual([
      'annotateCount',
      'createTime',
      'ext',
      'firstAddTime',
      'id',
      'labels',
      'liked',
      'link',
      'read',
      'size',
      'title',
    ]);
    expect(item).toMatchObject({
      title: 'banana',
      link: 'https://fruit.example/b',
      liked: true,
      read: false,
      labels: ['food', 'yellow'],
      annotateCount: 2,
      firstAddTime: T0 + DAY,
      ext: 'html',
    });
    const noLink = data.webpages.find((page) => page.id === archive.id('d'));
    expect(noLink?.link).toBeNull();
  });

  it('filters by liked, read and annotated (true and false)', async () => {
    expect(await list({ liked: 'true' })).toEqual(['c', 'a']);
    expect(await list({ liked: 'false' })).toEqual(['f', 'e', 'd', 'b']);
    expect(await list({ read: 'true' })).toEqual(['c', 'b']);
    expect(await list({ read: 'false' })).toEqual(['f', 'e', 'd', 'a']);
    expect(await list({ annotated: 'true' })).toEqual(['d', 'c', 'a']);
    expect(await list({ annotated: 'false' })).toEqual(['f', 'e', 'b']);
  });

  it('filters by host (with port, case-insensitive); repeated hosts are OR-ed', async () => {
    expect(await list({ host: 'fruit.example' })).toEqual(['e', 'b', 'a']);
    expect(await list({ host: 'cherry.example:8080' })).toEqual(['c']);
    expect(await list({ host: 'cherry.example' })).toEqual([]);
    expect(await list({ host: ['bakery.example', 'cherry.example:8080'] })).toEqual(['f', 'c']);
    expect(await list({ host: 'Fruit.Example' })).toEqual(['e', 'b', 'a']);
  });

  it('filters by labels; repeated labels must all be present', async () => {
    expect(await list({ labels: 'food' })).toEqual(['f', 'b', 'a']);
    expect(await list({ labels: ['food', 'yellow'] })).toEqual(['a']);
    expect(await list({ labels: ['food', 'nope'] })).toEqual([]);
  });

  it('filters by ext; repeated exts are OR-ed', async () => {
    expect(await list({ ext: 'html' })).toEqual(['e', 'd', 'a']);
    expect(await list({ ext: ['mhtml', 'webarchive'] })).toEqual(['f', 'c', 'b']);
  });

  it('ANDs all filters together', async () => {
    expect(await list({ liked: 'true', ext: 'html' })).toEqual(['a']);
    expect(await list({ labels: 'food', host: 'fruit.example', read: 'false' })).toEqual(['a']);
  });

  it('sorts six ways, titles case-insensitively', async () => {
    expect(await list({ sort: 'first_add_time_desc' })).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(await list({ sort: 'first_add_time_asc' })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    // "Apple" and "apple" tie: the id decides, the same way every time.
    const apples = [archive.id('b'), archive.id('e')].sort();
    const appleKeys = apples.map((id) => (id === archive.id('b') ? 'b' : 'e'));
    expect(await list({ sort: 'title_asc' })).toEqual([...appleKeys, 'a', 'c', 'd', 'f']);
    expect(await list({ sort: 'title_desc' })).toEqual([
      'f',
      'd',
      'c',
      'a',
      ...appleKeys.reverse(),
    ]);
    const ascCounts = await ok(archive, 'listWebpages', {
      query: { sort: 'annotate_count_asc' },
    });
    expect(ascCounts.webpages.map((page) => page.annotateCount)).toEqual([0, 0, 0, 1, 2, 3]);
    const zeroes = ['b', 'e', 'f'].map((key) => archive.id(key)).sort();
    expect(ascCounts.webpages.slice(0, 3).map((page) => page.id)).toEqual(zeroes);
    const descCounts = await ok(archive, 'listWebpages', {
      query: { sort: 'annotate_count_desc' },
    });
    expect(descCounts.webpages.map((page) => page.id)).toEqual([
      archive.id('d'),
      archive.id('a'),
      archive.id('c'),
      ...[...zeroes].reverse(),
    ]);
  });

  it('pages through the list; past the end is empty', async () => {
    expect(await list({ per_page: 4 })).toEqual(['f', 'e', 'd', 'c']);
    expect(await list({ per_page: 4, page: 2 })).toEqual(['b', 'a']);
    expect(await list({ per_page: 4, page: 3 })).toEqual([]);
    expect(await list({ per_page: 2, page: 2, sort: 'first_add_time_asc' })).toEqual(['c', 'd']);
    expect(await list({ page: 99_999_999 })).toEqual([]);
    expect(await list({ per_page: 1000 })).toHaveLength(6);
  });

  it('refuses invalid parameters with a message naming them', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ liked: 'yes' }, 'query/liked must be one of true, false'],
      [{ read: '1' }, 'query/read must be one of true, false'],
      [{ annotated: '' }, 'query/annotated must be one of true, false'],
      [{ per_page: '1001' }, 'query/per_page must be <= 1000'],
      [{ per_page: '0' }, 'query/per_page must be >= 1'],
      [{ page: '0' }, 'query/page must be >= 1'],
      [{ page: 'two' }, 'query/page must be an integer'],
      [{ page: '1.5' }, 'query/page must be an integer'],
      [{ page: ['1', '2'] }, 'query/page must be an integer'],
      [
        { sort: 'newest' },
        'query/sort must be one of first_add_time_desc, first_add_time_asc, title_asc, title_desc, annotate_count_asc, annotate_count_desc',
      ],
      [{ ext: 'pdf' }, 'query/ext/0 must be one of html, mhtml, webarchive'],
      [{ labels: '' }, 'query/labels/0 must not be empty'],
      [{ color: 'red' }, 'query/color is not allowed'],
    ];
    for (const [query, message] of cases) {
      const error = await fails(archive, 'listWebpages', 400, { query });
      expect(error.message).toBe(message);
    }
  });
});
