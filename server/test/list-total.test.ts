import { describe, expect, it } from 'vitest';
import { call, ok } from './support/api.ts';
import { useSeededServer, type SeedPage } from './support/seed.ts';

// Folio's `X-Total-Count` extension of listWebpages: how many webpages match, on all pages.

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);
const HOSTS = ['a.example', 'b.example', 'c.example'];

const PAGES: SeedPage[] = Array.from({ length: 17 }, (_, i) => ({
  key: `p${i}`,
  title: `Page ${i}`,
  ext: (['html', 'mhtml', 'webarchive'] as const)[i % 3]!,
  link: `https://${HOSTS[i % HOSTS.length]}/${i}`,
  liked: i % 2 === 0,
  read: i % 5 === 0,
  labels: i % 4 === 0 ? ['four', 'even'] : i % 2 === 0 ? ['even'] : [],
  highlights: i % 6 === 0 ? 1 : 0,
  addedAt: T0 + i * DAY,
}));

const archive = useSeededServer(PAGES, async (server, seeded) => {
  await ok(server, 'deleteWebpage', { params: { id: seeded.id('p16') } });
});

/** The header's value and the number of rows of every page of the same filtered list. */
async function totalAndRows(query: Record<string, string | number | string[]>) {
  const first = await call(archive, 'listWebpages', { query: { ...query, per_page: 4 } });
  expect(first.status).toBe(200);
  const header = first.headers.get('x-total-count');
  let rows = 0;
  for (let page = 1; ; page++) {
    const { webpages } = await ok(archive, 'listWebpages', {
      query: { ...query, per_page: 4, page },
    });
    rows += webpages.length;
    if (webpages.length < 4) break;
  }
  return { header, rows };
}

describe('listWebpages › X-Total-Count (Folio extension)', () => {
  const live = PAGES.slice(0, 16);
  const cases: [string, Record<string, string | number | string[]>, number][] = [
    ['no filter (the deleted page is not counted)', {}, live.length],
    ['liked', { liked: 'true' }, live.filter((p) => p.liked).length],
    ['not liked', { liked: 'false' }, live.filter((p) => !p.liked).length],
    [
      'read and liked',
      { read: 'true', liked: 'true' },
      live.filter((p) => p.read && p.liked).length,
    ],
    ['a host', { host: 'b.example' }, live.filter((p) => p.link!.includes('b.example')).length],
    [
      'two labels',
      { labels: ['four', 'even'] },
      live.filter((p) => p.labels!.includes('four')).length,
    ],
    ['a format', { ext: 'mhtml' }, live.filter((p) => p.ext === 'mhtml').length],
    ['with highlights', { annotated: 'true' }, live.filter((p) => p.highlights).length],
    ['nothing matches', { labels: 'none-such' }, 0],
  ];
  for (const [name, query, expected] of cases) {
    it(`equals the number of matching rows: ${name}`, async () => {
      const { header, rows } = await totalAndRows(query);
      expect(rows).toBe(expected);
      expect(header).toBe(String(expected));
    });
  }

  it('is the same on every page and past the last one', async () => {
    for (const page of [1, 3, 9]) {
      const response = await call(archive, 'listWebpages', { query: { per_page: 5, page } });
      expect(response.headers.get('x-total-count')).toBe(String(live.length));
    }
  });

  it('follows a change of the data', async () => {
    const before = await call(archive, 'listWebpages', { query: { liked: 'true' } });
    const likedBefore = Number(before.headers.get('x-total-count'));
    await ok(archive, 'patchWebpage', { params: { id: archive.id('p1') }, body: { liked: true } });
    const after = await call(archive, 'listWebpages', { query: { liked: 'true' } });
    expect(after.headers.get('x-total-count')).toBe(String(likedBefore + 1));
    await ok(archive, 'patchWebpage', { params: { id: archive.id('p1') }, body: { liked: false } });
  });

  it('is readable by a page on another origin (CORS exposes it)', async () => {
    const response = await call(archive, 'listWebpages', {
      headers: { origin: 'http://app.example' },
    });
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(
      'x-total-count',
    );
  });
});
