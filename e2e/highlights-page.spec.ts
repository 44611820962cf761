// The highlights page: every highlight newest first, found by its note, filtered by the page's
// label and host, linked to its spot in the page, exported as Markdown; on Folio's server (its
// listHighlights extension) and on a server without it (FOLIO_AS_HAMSTERBASE=1: gathered from the
// annotated pages).
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { expect, test, type Archive } from './support/fixtures.ts';

interface Made {
  page: string;
  title: string;
  highlightId: string;
  text: string;
  note?: string;
}

/** Three pages on two hosts with labels, and four highlights made one after the other. */
async function seedHighlights(archive: Archive): Promise<Made[]> {
  const pages = [
    {
      key: 'tea',
      title: 'Tea harvest notes',
      link: 'https://leaves.example/tea',
      labels: ['drinks'],
    },
    {
      key: 'bread',
      title: 'Sourdough basics',
      link: 'https://oven.example/bread',
      labels: ['food'],
    },
    {
      key: 'jam',
      title: 'Jam and preserves',
      link: 'https://oven.example/jam',
      labels: ['food', 'sweet'],
    },
  ];
  const ids = new Map<string, string>();
  for (const page of pages) {
    const file = makeHtml({
      title: page.title,
      body: `<p>${page.title}: a page about ${page.key}.</p>`,
    });
    const { id } = await archive.upload(file, 'html', { link: page.link });
    await archive.api('PATCH', `/webpages/${id}`, { labels: page.labels });
    ids.set(page.key, id);
  }
  const made: Made[] = [];
  const highlights = [
    { page: 'tea', text: 'First flush picked in spring', note: 'Ask the grower about altitude' },
    { page: 'bread', text: 'Feed the starter twice a day' },
    { page: 'jam', text: 'Pectin sets the fruit', note: 'Try less sugar — crème de cassis?' },
    { page: 'bread', text: 'A long cold proof deepens flavour', note: 'Overnight in the fridge' },
  ];
  for (const highlight of highlights) {
    const id = ids.get(highlight.page)!;
    const highlightId = await archive.api<string>('POST', `/webpages/${id}/highlights`, {
      text: highlight.text,
      textBefore: '',
      textAfter: '',
      ...(highlight.note ? { note: highlight.note } : {}),
    });
    const title = pages.find((page) => page.key === highlight.page)!.title;
    made.push({ ...highlight, page: id, title, highlightId });
  }
  return made;
}

const list = (page: Page) => page.getByRole('list', { name: 'Highlights' });
const quotes = (page: Page) => list(page).locator('blockquote');

/** The highlights newest first, by the edit times the server stored. */
async function newestFirst(archive: Archive, made: readonly Made[]): Promise<string[]> {
  const times = new Map<string, number>();
  for (const pageId of new Set(made.map((item) => item.page))) {
    const webpage = await archive.api<{ highlights: { highlightId: string; editTime: number }[] }>(
      'GET',
      `/webpages/${pageId}`,
    );
    webpage.highlights.forEach((h, index) => times.set(h.highlightId, h.editTime * 1000 + index));
  }
  return [...made]
    .sort((a, b) => times.get(b.highlightId)! - times.get(a.highlightId)!)
    .map((item) => item.text);
}

async function searchAndFilter(page: Page, made: readonly Made[]): Promise<void> {
  // Search by note text, accents and case aside: the address follows.
  await page.getByLabel('Search highlights and notes').fill('CREME DE');
  await expect(quotes(page)).toHaveText(['Pectin sets the fruit']);
  await expect(page).toHaveURL(/[?&]q=CREME\+DE/);
  await page.getByLabel('Search highlights and notes').fill('');
  await expect(quotes(page)).toHaveCount(made.length);

  // Label: food → the bread and jam highlights; then host oven.example and the sweet label.
  await page.getByRole('combobox', { name: 'Label', exact: true }).selectOption('food');
  await expect(page).toHaveURL(/[?&]label=food/);
  await expect(quotes(page)).toHaveCount(3);
  await expect(quotes(page)).not.toContainText(['First flush picked in spring']);
  await page.getByRole('combobox', { name: 'Label', exact: true }).selectOption('sweet');
  await expect(quotes(page)).toHaveText(['Pectin sets the fruit']);
  await page.getByRole('button', { name: 'Remove label filter sweet' }).click();
  await page.getByRole('button', { name: 'Remove label filter food' }).click();
  await page.getByRole('combobox', { name: 'Host', exact: true }).selectOption('leaves.example');
  await expect(quotes(page)).toHaveText(['First flush picked in spring']);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(quotes(page)).toHaveCount(made.length);
}

test('finds, filters, follows and exports highlights on Folio’s server', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/highlights');
  // No highlight yet: the page says how to make one.
  await expect(page.getByText('No highlights yet')).toBeVisible();
  await expect(page.getByText(/select text in its preview and choose Highlight/)).toBeVisible();
  await expectNoSeriousViolations(page, 'the empty highlights page');

  const made = await seedHighlights(archive);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Highlights' })
    .click();
  await page.reload();
  const expected = await newestFirst(archive, made);
  await expect(quotes(page)).toHaveText(expected);
  expect(expected[0]).toBe('A long cold proof deepens flavour');
  const top = list(page).getByRole('listitem').first();
  await expect(top).toContainText('Overnight in the fridge');
  await expect(top).toContainText('oven.example');
  await expect(top.locator('time')).toHaveCount(1);
  await expect(page.getByText(/Gathered from/)).toHaveCount(0);
  await expectNoSeriousViolations(page, 'the highlights page');

  await searchAndFilter(page, made);

  // Export: the list as Markdown, each quote with its note and page.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Markdown' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Highlights.md');
  const markdown = await readFile((await file.path())!, 'utf8');
  expect(markdown).toContain('4 highlights from 3 pages');
  expect(markdown).toContain('> Pectin sets the fruit\n\nTry less sugar — crème de cassis?');
  expect(markdown).toMatch(
    /## \[Sourdough basics\]\(<http:\/\/127\.0\.0\.1:\d+\/webpages\/[0-9a-f]{64}>\)/,
  );
  expect(markdown).toContain('Original: <https://oven.example/bread>');

  // The title links to the spot in the page.
  const jam = made.find((item) => item.text === 'Pectin sets the fruit')!;
  await list(page).getByRole('link', { name: 'Jam and preserves' }).click();
  await expect(page).toHaveURL(new RegExp(`/webpages/${jam.page}\\?highlight=${jam.highlightId}$`));
});

test('gathers the same list from the annotated pages on a server without the extension', async ({
  page,
  hamster,
}) => {
  const made = await seedHighlights(hamster);
  // One page without highlights: never read for them.
  await hamster.upload(makeHtml({ title: 'Plain page', body: '<p>Nothing marked.</p>' }), 'html', {
    link: 'https://plain.example/',
  });
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/public/api/v1/'))
      requests.push(url.pathname.slice('/public/api/v1'.length) + url.search);
  });
  await hamster.open(page, '/highlights');
  await expect(quotes(page)).toHaveText(await newestFirst(hamster, made));
  await expect(page.getByText('Gathered from 3 annotated pages;')).toBeVisible();
  expect(requests.some((line) => line.startsWith('/highlights'))).toBe(true);
  expect(requests.some((line) => /^\/webpages\?.*annotated=true/.test(line))).toBe(true);
  expect(requests.filter((line) => /^\/webpages\/[0-9a-f]{64}$/.test(line))).toHaveLength(3);

  await searchAndFilter(page, made);
  await expectNoSeriousViolations(page, 'the gathered highlights page');
});
