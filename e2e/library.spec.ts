// The library over 75 pages: sort, filters, page size and paging all live in the URL, so that every
// step survives a reload and the browser's back and forward buttons bring back the same rows. Then
// multi-select and bulk actions, checked against what the server stored.
import type { Page } from '@playwright/test';
import { expect, test, type Archive } from './support/fixtures.ts';
import {
  byTitle,
  HOSTS,
  seed,
  variedPages,
  type SeedPage,
  type SeededPage,
} from './support/seed.ts';

/** The titles the list shows, top to bottom. */
const rowTitles = (page: Page) =>
  page.getByRole('list', { name: 'Webpages' }).locator('.webpage-row__title');

const pager = (page: Page) => page.getByRole('navigation', { name: 'Pages' });

/** Search parameters; a repeated one is an array (in any order). */
type Search = Record<string, string | string[]>;

interface Step {
  name: string;
  act: (page: Page) => Promise<void>;
  /** The list's URL search parameters after the step (order does not matter). */
  search: Search;
  titles: string[];
  /** Whether a next page exists. */
  hasNext: boolean;
}

/** A canonical form of search parameters: keys sorted, repeated values sorted into an array. */
function canonical(search: Search): Search {
  return Object.fromEntries(
    Object.entries(search)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, Array.isArray(value) ? [...value].sort() : value]),
  );
}

function searchOf(page: Page): Search {
  const params = new URL(page.url()).searchParams;
  const search: Search = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    search[key] = values.length === 1 ? values[0]! : values;
  }
  return canonical(search);
}

/** The URL and the rows (exactly, in order) and whether "Next" is offered. */
async function expectStep(page: Page, archive: Archive, step: Step, how: string): Promise<void> {
  await expect
    .poll(() => ({ origin: new URL(page.url()).origin, path: new URL(page.url()).pathname }), {
      message: `${step.name} (${how}): address`,
    })
    .toEqual({ origin: archive.url, path: '/' });
  await expect
    .poll(() => searchOf(page), { message: `${step.name} (${how}): search` })
    .toEqual(canonical(step.search));
  await expect(rowTitles(page), `${step.name} (${how}): rows`).toHaveText(step.titles);
  await expect(pager(page).getByRole('link', { name: /^Next/ }), `${step.name}: Next`).toHaveCount(
    step.hasNext ? 1 : 0,
  );
}

const where = (pages: readonly SeedPage[], test: (page: SeedPage) => boolean) => pages.filter(test);

const select = (label: string, value: string) => async (p: Page) => {
  await p.getByRole('combobox', { name: label, exact: true }).selectOption(value);
};
/** Checks `value` in a filter menu ("Hosts", "Labels") and closes it. */
const pickFacet = (menu: string, panel: string, value: string) => async (p: Page) => {
  await p.getByRole('button', { name: menu, exact: true }).click();
  const box = p.getByRole('group', { name: panel }).getByRole('checkbox', { name: value });
  await box.click();
  await expect(box).toBeChecked();
  await p.getByRole('group', { name: panel }).getByRole('button', { name: 'Done' }).click();
};
const next = async (p: Page) => pager(p).getByRole('link', { name: /^Next/ }).click();
const previous = async (p: Page) =>
  pager(p)
    .getByRole('link', { name: /Previous/ })
    .click();

/**
 * Does every step, checking the rows after it and after a reload; then goes all the way back and
 * all the way forward through the history, checking each step's rows again.
 */
async function walk(page: Page, archive: Archive, steps: readonly Step[]): Promise<void> {
  // The journey is only meaningful if every filter leaves something to show.
  for (const step of steps) expect(step.titles.length, step.name).toBeGreaterThan(0);
  for (const step of steps) {
    await step.act(page);
    await expectStep(page, archive, step, 'after the action');
    await page.reload();
    await expectStep(page, archive, step, 'after a reload');
  }
  for (let i = steps.length - 2; i >= 0; i--) {
    await page.goBack();
    await expectStep(page, archive, steps[i]!, 'after Back');
  }
  for (let i = 1; i < steps.length; i++) {
    await page.goForward();
    await expectStep(page, archive, steps[i]!, 'after Forward');
  }
}

test('sort and page through 75 pages; reload, back and forward bring back the same rows', async ({
  page,
  archive,
}) => {
  // A long journey (some 40 page loads) on a shared 2-core machine.
  test.setTimeout(120_000);
  const pages = variedPages(75);
  expect(await seed(archive, pages)).toHaveLength(75);
  const asc = byTitle(pages, 'asc');
  const desc = byTitle(pages, 'desc');
  // The default order (newest first) is the server's to decide for pages added in the same batch.
  const newest = await archive.api<{ webpages: { title: string }[] }>('GET', '/webpages');

  await walk(page, archive, [
    {
      name: 'the first page, newest first',
      act: (p) => archive.open(p, '/'),
      search: {},
      titles: newest.webpages.map((w) => w.title),
      hasNext: true,
    },
    {
      name: 'title A→Z',
      act: select('Sort', 'title_asc'),
      search: { sort: 'title_asc' },
      titles: asc.slice(0, 30),
      hasNext: true,
    },
    {
      name: 'A→Z page 2',
      act: next,
      search: { sort: 'title_asc', page: '2' },
      titles: asc.slice(30, 60),
      hasNext: true,
    },
    {
      name: 'A→Z page 3, the last',
      act: next,
      search: { sort: 'title_asc', page: '3' },
      titles: asc.slice(60),
      hasNext: false,
    },
    {
      name: 'Previous from page 3',
      act: previous,
      search: { sort: 'title_asc', page: '2' },
      titles: asc.slice(30, 60),
      hasNext: true,
    },
    {
      name: 'title Z→A (back to page 1)',
      act: select('Sort', 'title_desc'),
      search: { sort: 'title_desc' },
      titles: desc.slice(0, 30),
      hasNext: true,
    },
    {
      name: '60 per page',
      act: select('Per page', '60'),
      search: { sort: 'title_desc', per_page: '60' },
      titles: desc.slice(0, 60),
      hasNext: true,
    },
    {
      name: '60 per page, page 2',
      act: next,
      search: { sort: 'title_desc', per_page: '60', page: '2' },
      titles: desc.slice(60),
      hasNext: false,
    },
    {
      name: '100 per page',
      act: select('Per page', '100'),
      search: { sort: 'title_desc', per_page: '100' },
      titles: desc,
      hasNext: false,
    },
  ]);
  // The controls say what the URL says.
  await expect(page.getByRole('combobox', { name: 'Sort', exact: true })).toHaveValue('title_desc');
  await expect(page.getByRole('combobox', { name: 'Per page', exact: true })).toHaveValue('100');

  // An address past the last page (an old bookmark) says so and leads back to the first page.
  await archive.open(page, '/?sort=title_asc&page=9');
  await expect(page.getByText('No webpages on this page.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the first page' }).click();
  await expectStep(
    page,
    archive,
    {
      name: 'back to page 1',
      act: async () => {},
      search: { sort: 'title_asc' },
      titles: asc.slice(0, 30),
      hasNext: true,
    },
    'from past the end',
  );
});

test('filter 75 pages by liked, read, format, host and label; the URL round trip keeps the rows', async ({
  page,
  archive,
}) => {
  // A long journey (some 40 page loads) on a shared 2-core machine.
  test.setTimeout(120_000);
  const pages = variedPages(75);
  expect(await seed(archive, pages)).toHaveLength(75);
  const desc = byTitle(pages, 'desc');
  const liked = where(pages, (p) => p.liked);
  const likedUnread = where(liked, (p) => !p.read);
  const likedUnreadMhtml = where(likedUnread, (p) => p.ext === 'mhtml');
  const firstHost = pages.find((p) => p.title === byTitle(likedUnreadMhtml, 'desc')[0])!.host;

  await walk(page, archive, [
    {
      name: 'all of them, Z→A, 100 per page (from the address)',
      act: (p) => archive.open(p, '/?sort=title_desc&per_page=100'),
      search: { sort: 'title_desc', per_page: '100' },
      titles: desc,
      hasNext: false,
    },
    {
      name: 'liked',
      act: select('Liked', 'yes'),
      search: { sort: 'title_desc', per_page: '100', liked: 'yes' },
      titles: byTitle(liked, 'desc'),
      hasNext: false,
    },
    {
      name: 'liked and unread',
      act: select('Read', 'no'),
      search: { sort: 'title_desc', per_page: '100', liked: 'yes', read: 'no' },
      titles: byTitle(likedUnread, 'desc'),
      hasNext: false,
    },
    {
      name: 'liked, unread MHTML',
      act: select('Format', 'mhtml'),
      search: { sort: 'title_desc', per_page: '100', liked: 'yes', read: 'no', ext: 'mhtml' },
      titles: byTitle(likedUnreadMhtml, 'desc'),
      hasNext: false,
    },
    {
      name: 'the first row’s host',
      act: async (p) => {
        await p
          .getByRole('list', { name: 'Webpages' })
          .getByRole('listitem')
          .first()
          .getByRole('link', { name: firstHost, exact: true })
          .click();
      },
      search: {
        sort: 'title_desc',
        per_page: '100',
        liked: 'yes',
        read: 'no',
        ext: 'mhtml',
        host: firstHost,
      },
      titles: byTitle(
        where(likedUnreadMhtml, (p) => p.host === firstHost),
        'desc',
      ),
      hasNext: false,
    },
    {
      name: 'filters cleared',
      act: async (p) => p.getByRole('button', { name: 'Clear filters' }).click(),
      search: { sort: 'title_desc', per_page: '100' },
      titles: desc,
      hasNext: false,
    },
    {
      name: 'a host from the Hosts menu',
      act: pickFacet('Hosts', 'Filter by host', HOSTS[2]!),
      search: { sort: 'title_desc', per_page: '100', host: HOSTS[2]! },
      titles: byTitle(
        where(pages, (p) => p.host === HOSTS[2]),
        'desc',
      ),
      hasNext: false,
    },
    {
      name: 'a second host (either one)',
      act: pickFacet('Hosts', 'Filter by host', HOSTS[3]!),
      search: { sort: 'title_desc', per_page: '100', host: [HOSTS[2]!, HOSTS[3]!] },
      titles: byTitle(
        where(pages, (p) => p.host === HOSTS[2] || p.host === HOSTS[3]),
        'desc',
      ),
      hasNext: false,
    },
    {
      name: 'the first host’s chip removed',
      act: async (p) => {
        await p.getByRole('button', { name: `Remove host filter ${HOSTS[2]}` }).click();
      },
      search: { sort: 'title_desc', per_page: '100', host: HOSTS[3]! },
      titles: byTitle(
        where(pages, (p) => p.host === HOSTS[3]),
        'desc',
      ),
      hasNext: false,
    },
    {
      name: 'a row’s label',
      act: async (p) => {
        await p
          .getByRole('list', { name: 'Webpages' })
          .getByRole('link', { name: 'recipes', exact: true })
          .first()
          .click();
      },
      search: { sort: 'title_desc', per_page: '100', host: HOSTS[3]!, label: 'recipes' },
      titles: byTitle(
        where(pages, (p) => p.host === HOSTS[3] && p.labels.includes('recipes')),
        'desc',
      ),
      hasNext: false,
    },
  ]);
  // The controls say what the URL says.
  await expect(page.getByRole('combobox', { name: 'Liked', exact: true })).toHaveValue('any');
  await expect(page.getByText(`Host: ${HOSTS[3]}`)).toBeVisible();
  await expect(page.getByText('Label: recipes')).toBeVisible();
});

/** What the server stored for the pages with these titles, in that order. */
async function storedByTitle(archive: Archive, seeded: readonly SeededPage[], titles: string[]) {
  return Promise.all(
    titles.map(async (title) => {
      const { id } = seeded.find((p) => p.title === title)!;
      return archive.api<{ title: string; liked: boolean; read: boolean; labels: string[] }>(
        'GET',
        `/webpages/${id}`,
      );
    }),
  );
}

const listedTitles = async (archive: Archive) =>
  (
    await archive.api<{ webpages: { title: string }[] }>('GET', '/webpages?sort=title_asc')
  ).webpages.map((w) => w.title);

test('multi-select with checkboxes and a shift-click range; bulk like, read, label and delete', async ({
  page,
  archive,
}) => {
  const pages: SeedPage[] = Array.from({ length: 8 }, (_, i) => ({
    title: `Bulk page ${String.fromCharCode(65 + i)}`,
    host: 'bulk.example.com',
    ext: 'html',
    liked: false,
    read: false,
    labels: i === 2 ? ['kept'] : [],
  }));
  const seeded = await seed(archive, pages);
  const titles = byTitle(pages); // Bulk page A … H
  // The undo window of a delete runs on a clock the test moves.
  await page.clock.install();
  await archive.open(page, '/?sort=title_asc');
  await expect(rowTitles(page)).toHaveText(titles);

  const checkbox = (title: string) => page.getByRole('checkbox', { name: `Select ${title}` });
  const bulk = page.getByRole('group', { name: 'Bulk actions' });
  /** A message of the app's notifications (a polite live region). */
  const notice = (text: string) => page.getByText(text, { exact: true });
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  const chosen = ['Bulk page B', 'Bulk page C', 'Bulk page D', 'Bulk page E', 'Bulk page G'];
  /** B, then Shift+click on E (B to E), then G alone. */
  const selectChosen = async () => {
    await checkbox('Bulk page B').click();
    await checkbox('Bulk page E').click({ modifiers: ['Shift'] });
    await checkbox('Bulk page G').click();
    for (const title of titles) {
      await expect(checkbox(title)).toBeChecked({ checked: chosen.includes(title) });
    }
    await expect(bulk.getByRole('status').first()).toHaveText('5 selected');
  };
  /** After an action the selection is cleared (only pages whose change failed stay selected). */
  const expectSelectionCleared = async () => {
    for (const title of titles) await expect(checkbox(title)).not.toBeChecked();
    await expect(bulk).toHaveCount(0);
  };
  const expectStored = async (
    key: 'liked' | 'read' | 'labels',
    expected: (title: string) => unknown,
  ) =>
    expect
      .poll(async () => (await storedByTitle(archive, seeded, titles)).map((w) => w[key]), {
        message: `${key} on the server`,
      })
      .toEqual(titles.map(expected));

  await selectChosen();
  await bulk.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(notice('Liked 5 webpages.')).toBeVisible();
  await expectStored('liked', (t) => chosen.includes(t));
  // The rows say so too.
  for (const title of titles) {
    const row = page.getByRole('listitem').filter({ has: checkbox(title) });
    await expect(row.getByText('Liked', { exact: true })).toHaveCount(
      chosen.includes(title) ? 1 : 0,
    );
  }

  await expectSelectionCleared();
  await selectChosen();
  await bulk.getByRole('button', { name: 'Mark as read', exact: true }).click();
  await expect(notice('Marked as read 5 webpages.')).toBeVisible();
  await expectStored('read', (t) => chosen.includes(t));

  await expectSelectionCleared();
  await selectChosen();
  await bulk.getByRole('button', { name: /^Add label/ }).click();
  await bulk.getByRole('combobox', { name: 'Label to add' }).fill('bulk-read');
  await bulk.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(notice('Added the label “bulk-read” to 5 webpages.')).toBeVisible();
  await expectStored('labels', (t) => {
    const own = t === 'Bulk page C' ? ['kept'] : [];
    return chosen.includes(t) ? [...own, 'bulk-read'] : own;
  });
  for (const title of chosen) {
    const row = page.getByRole('listitem').filter({ has: checkbox(title) });
    await expect(row.getByRole('link', { name: 'bulk-read', exact: true })).toBeVisible();
  }

  // Delete, then Undo: the rows come back and nothing is deleted, even after the window.
  await expectSelectionCleared();
  await selectChosen();
  await bulk.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(rowTitles(page)).toHaveText(titles.filter((t) => !chosen.includes(t)));
  await expect(notice('Deleted 5 webpages')).toBeVisible();
  await undo.click();
  await expect(rowTitles(page)).toHaveText(titles);
  await page.clock.runFor(10_000);
  expect(await listedTitles(archive)).toEqual(titles);

  // Delete without Undo: gone from the list at once, from the server when the window closes.
  await expectSelectionCleared();
  await selectChosen();
  await bulk.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(rowTitles(page)).toHaveText(titles.filter((t) => !chosen.includes(t)));
  expect(await listedTitles(archive), 'still undoable').toEqual(titles);
  await page.clock.runFor(10_000);
  await expect.poll(() => listedTitles(archive)).toEqual(titles.filter((t) => !chosen.includes(t)));
  await page.reload();
  await expect(rowTitles(page)).toHaveText(titles.filter((t) => !chosen.includes(t)));
});
