// Full-text search in the app against the real server: results as you type with the matches
// marked, the query and filters in the address, CJK text, and a server without search.
import type { Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { startServer } from './support/server.ts';

const page = (title: string, text: string, link: string) =>
  makeHtml({ title, body: `<p>${text}</p>`, singleFileUrl: link });

async function seedPages(archive: Archive) {
  const quokka = await archive.upload(
    page('Quokka facts', 'Small marsupials of Rottnest island.', 'https://animals.example/q'),
    'html',
  );
  const island = await archive.upload(
    page(
      'Island travel',
      'On the ferry we met a quokka near the jetty.',
      'https://travel.example/r',
    ),
    'html',
  );
  await archive.upload(
    page('这是中文网页', '我们今天去北京看长城。', 'https://zh.example/a'),
    'html',
  );
  await archive.upload(page('Unrelated', 'Cats and dogs.', 'https://pets.example/c'), 'html');
  await archive.api('PATCH', `/webpages/${island.id}`, { liked: true });
  return { quokka, island };
}

const searchField = (p: Page) => p.getByRole('searchbox', { name: 'Search webpages' });
const results = (p: Page) => p.getByRole('list', { name: 'Search results' });
const resultTitles = (p: Page) => results(p).locator('.search-result__title');

test('search as you type: marked matches, the query in the address, filters, CJK', async ({
  page: p,
  archive,
}) => {
  await seedPages(archive);
  await archive.open(p, '/');
  await expect(p.getByRole('list', { name: 'Webpages' })).toBeVisible();
  await p.waitForLoadState('networkidle');

  // Ctrl+K from the library focuses the field; typing shows results without pressing Enter.
  await p.keyboard.press('Control+k');
  await expect(searchField(p)).toBeFocused();
  await p.keyboard.type('quokka');
  await expect(p).toHaveURL(/\/search\?q=quokka$/);
  await expect(resultTitles(p)).toHaveText(['Quokka facts', 'Island travel']);
  // Title match first; the matches are <mark>s in titles and snippets.
  await expect(resultTitles(p).first().locator('mark')).toHaveText('Quokka');
  await expect(results(p).locator('.search-result__snippet mark')).toHaveText(['quokka']);
  await expect(p.getByRole('status').filter({ hasText: 'results for' })).toHaveText(
    '2 results for “quokka”',
  );
  await expect(searchField(p)).toBeFocused();

  // A filter narrows the results and goes into the address with the query.
  await p.getByRole('combobox', { name: 'Liked' }).selectOption('yes');
  await expect(p).toHaveURL(/\/search\?q=quokka&liked=yes$/);
  await expect(resultTitles(p)).toHaveText(['Island travel']);

  // A new query keeps the filter; the reload keeps both.
  await searchField(p).fill('jetty');
  await expect(p).toHaveURL(/\/search\?q=jetty&liked=yes$/);
  await expect(resultTitles(p)).toHaveText(['Island travel']);
  await p.reload();
  await expect(searchField(p)).toHaveValue('jetty');
  await expect(resultTitles(p)).toHaveText(['Island travel']);
  await p.getByRole('button', { name: 'Clear filters' }).click();
  await expect(p).toHaveURL(/\/search\?q=jetty$/);

  // Chinese without spaces; the title is text with a <mark>, never HTML.
  await searchField(p).fill('中文');
  await expect(resultTitles(p)).toHaveText(['这是中文网页']);
  await expect(resultTitles(p).locator('mark')).toHaveText('中文');
  await expect(p).toHaveURL(/\/search\?q=%E4%B8%AD%E6%96%87$/);

  await searchField(p).fill('zebra');
  await expect(p.getByText('No webpages match “zebra”.')).toBeVisible();

  // Back brings back the previous search, in the field too.
  await p.goBack();
  await expect(p).toHaveURL(/\/$/);
  await expect(searchField(p)).toHaveValue('');
});

test('phrases, exclusions, accents, labels and CJK, as the hint says', async ({
  page: p,
  archive,
}) => {
  // Unique words, so that each search finds exactly the page it is about.
  const night = await archive.upload(
    page('Zephyr diary', 'We took the night trains across the Alps.', 'https://rail.example/n'),
    'html',
  );
  await archive.upload(
    page('Zephyr timetable', 'Trains leave at night, buses at dawn.', 'https://rail.example/t'),
    'html',
  );
  await archive.upload(
    page('Flâner à Paris', 'Un café au bord de la Seine.', 'https://paris.example/f'),
    'html',
  );
  await archive.upload(
    page('夜行列車の旅', '北海道へ行きました。', 'https://ja.example/y'),
    'html',
  );
  await archive.api('PATCH', `/webpages/${night.id}`, { labels: ['wanderlust-zx'] });

  await archive.open(p, '/');
  await expect(p.getByRole('list', { name: 'Webpages' })).toBeVisible();
  // The field says what it supports, and the hint is its accessible description.
  await expect(searchField(p)).toHaveAccessibleDescription(
    '"two words" finds a phrase, -word leaves pages out; accents are optional.',
  );

  // The words apart find both pages (in the order bm25 ranks them).
  await searchField(p).fill('zephyr night trains');
  await expect(resultTitles(p)).toHaveCount(2);
  await expect(resultTitles(p).filter({ hasText: 'Zephyr timetable' })).toHaveCount(1);
  // A phrase: the words together, marked as one.
  await searchField(p).fill('"night trains"');
  await expect(resultTitles(p)).toHaveText(['Zephyr diary']);
  await expect(results(p).locator('.search-result__snippet mark')).toHaveText(['night trains']);
  // An exclusion.
  await searchField(p).fill('zephyr -buses');
  await expect(resultTitles(p)).toHaveText(['Zephyr diary']);

  // Accents both ways, marked as the page writes them.
  await searchField(p).fill('flaner cafe');
  await expect(resultTitles(p)).toHaveText(['Flâner à Paris']);
  await expect(resultTitles(p).locator('mark')).toHaveText('Flâner');
  await expect(results(p).locator('.search-result__snippet mark')).toHaveText(['café']);
  await searchField(p).fill('Paris café');
  await expect(resultTitles(p)).toHaveText(['Flâner à Paris']);

  // A label finds its page; so does its host.
  await searchField(p).fill('wanderlust-zx');
  await expect(resultTitles(p)).toHaveText(['Zephyr diary']);
  await searchField(p).fill('paris.example');
  await expect(resultTitles(p)).toHaveText(['Flâner à Paris']);

  // Japanese inside a title without spaces.
  await searchField(p).fill('列車');
  await expect(resultTitles(p)).toHaveText(['夜行列車の旅']);
  await expect(resultTitles(p).locator('mark')).toHaveText('列車');

  // Syntax the index would choke on is text: no error, just no match.
  await searchField(p).fill('"zephyr AND (');
  await expect(p.getByText('No webpages match')).toBeVisible();
  await expect(p.getByRole('alert')).toHaveCount(0);
});

test('typing fast ends with a search for the whole word', async ({ page: p, archive }) => {
  await seedPages(archive);
  await archive.open(p, '/settings');
  const queries: string[] = [];
  p.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/search/webpages')) queries.push(url.searchParams.get('q') ?? '');
  });
  await expect(p.getByRole('heading', { name: 'Settings' })).toBeVisible();
  // The shortcuts load right after the first paint.
  await p.waitForLoadState('networkidle');
  // `/` focuses search outside the library.
  await p.keyboard.press('/');
  await expect(searchField(p)).toBeFocused();
  await p.keyboard.type('ferry', { delay: 20 });
  await expect(p).toHaveURL(/\/search\?q=ferry$/);
  await expect(resultTitles(p)).toHaveText(['Island travel']);
  // The last request is the whole word ("fer" finds the same page, so its results can show
  // first). How many are sent depends on how far apart the keys arrive, which a busy machine
  // decides: that the debounce sends one for keys typed within it is a unit test
  // (search-box-behaviour.test.tsx).
  await expect.poll(() => queries.at(-1)).toBe('ferry');
});

test('a server without search says so instead of failing', async ({ page: p }) => {
  const server = await startServer({ FOLIO_DISABLE_SEARCH: '1' });
  try {
    await p.goto(`${server.url}/search?q=quokka#token=${encodeURIComponent(server.token)}`);
    await expect(p.getByText('This server has no full-text search')).toBeVisible();
    await expect(p.getByRole('alert')).toHaveCount(0);
  } finally {
    await server.stop();
  }
});
