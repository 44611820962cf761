import { describe, expect, it } from 'vitest';
import { call, fails, ok } from './support/api.ts';
import { useSeededServer, type SeedPage } from './support/seed.ts';

// Folio's `link` extension of listWebpages: the other captures of a page.

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);
const LINK = 'https://news.example/story?id=7';

const PAGES: SeedPage[] = [
  { key: 'first', title: 'Story', ext: 'html', link: LINK, addedAt: T0 + DAY },
  {
    key: 'other',
    title: 'Other story',
    ext: 'html',
    link: 'https://news.example/story?id=8',
    addedAt: T0 + 2 * DAY,
  },
  { key: 'second', title: 'Story', ext: 'mhtml', link: LINK, liked: true, addedAt: T0 + 3 * DAY },
  { key: 'trailing', title: 'Story', ext: 'html', link: `${LINK}&`, addedAt: T0 + 4 * DAY },
  { key: 'gone', title: 'Story', ext: 'html', link: LINK, addedAt: T0 + 5 * DAY },
  { key: 'third', title: 'Story', ext: 'webarchive', link: LINK, addedAt: T0 + 6 * DAY },
  { key: 'safari', title: 'From the file', ext: 'webarchive', addedAt: T0 + 7 * DAY },
];

const archive = useSeededServer(PAGES, async (server, seeded) => {
  await ok(server, 'deleteWebpage', { params: { id: seeded.id('gone') } });
});

async function list(query: Record<string, string | number | string[]>) {
  const data = await ok(archive, 'listWebpages', { query });
  return archive.keys(data.webpages);
}

describe('listWebpages › link (Folio extension)', () => {
  it('lists the live pages whose link is exactly the given one, in the asked order', async () => {
    expect(await list({ link: LINK })).toEqual(['third', 'second', 'first']);
    expect(await list({ link: LINK, sort: 'first_add_time_asc' })).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('is AND-ed with the other filters and paged like the list', async () => {
    expect(await list({ link: LINK, host: 'news.example' })).toEqual(['third', 'second', 'first']);
    expect(await list({ link: LINK, host: 'elsewhere.example' })).toEqual([]);
    expect(await list({ link: LINK, liked: 'true' })).toEqual(['second']);
    expect(await list({ link: LINK, per_page: 2 })).toEqual(['third', 'second']);
    expect(await list({ link: LINK, per_page: 2, page: 2 })).toEqual(['first']);
  });

  it('compares the whole link exactly: no prefix, no other query, no other case', async () => {
    expect(await list({ link: 'https://news.example/story' })).toEqual([]);
    expect(await list({ link: 'https://news.example/story?id=8' })).toEqual(['other']);
    expect(await list({ link: `${LINK}&` })).toEqual(['trailing']);
    expect(await list({ link: LINK.toUpperCase() })).toEqual([]);
  });

  it('finds a link read from the file itself', async () => {
    const page = await ok(archive, 'getWebpage', { params: { id: archive.id('safari') } });
    expect(page.link).toBe('https://webarchive.example/safari');
    expect(await list({ link: 'https://webarchive.example/safari' })).toEqual(['safari']);
  });

  it('refuses an empty, repeated or oversized link with a 400 naming it', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ link: '' }, 'query/link must not be empty'],
      [{ link: [LINK, LINK] }, 'query/link must be a string'],
    ];
    for (const [query, message] of cases) {
      const error = await fails(archive, 'listWebpages', 400, { query });
      expect(error.message).toBe(message);
    }
    const long = await call(archive, 'listWebpages', {
      query: { link: `https://news.example/${'a'.repeat(8192)}` },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/^query\/link /);
  });
});
