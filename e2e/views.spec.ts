// Views: create one with several filters in the editor, edit its filters and sort, save the
// library's filters as a view, delete a view, move within a view, a long view drawn in part, and
// the recreate path against a server that ignores filters in PATCH (as HamsterBase does).
import type { Locator, Page } from '@playwright/test';
import { expect, test, type Archive } from './support/fixtures.ts';
import { seed, variedPages, type SeededPage } from './support/seed.ts';
import { holdWebpageDetails } from './support/slow-network.ts';
import { addFilter, addUnreadResearchFilters, unreadResearch } from './support/view-editor.ts';

interface StoredView {
  id: string;
  title: string;
  sort: number;
  match: string;
  filters: { key: string; operator: unknown; rightOperand?: unknown }[];
}

/** Folio sorts titles ignoring case (the seeded titles are unique that way). */
function titlesOf(pages: readonly SeededPage[], direction: 'asc' | 'desc' = 'asc'): string[] {
  const titles = pages
    .map((page) => page.title)
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return direction === 'asc' ? titles : titles.reverse();
}

/** The titles of a view's rows, top to bottom (the drawn ones). */
const viewRows = (page: Page, title: string) =>
  page.getByRole('list', { name: `Webpages of ${title}` }).locator('.webpage-row__title');

const chipsOf = (scope: Page | Locator) =>
  scope.getByRole('list', { name: 'Filters of the view' }).getByRole('listitem');

/** Opens the filter builder, picks the kind, sets it up with `configure`, adds the filter. */
const viewIdOf = (page: Page) => new URL(page.url()).pathname.split('/')[2] ?? '';

test('create a view with several filters in the editor, with a live preview, and see its pages', async ({
  page,
  archive,
}) => {
  const seeded = await seed(archive, variedPages(30));
  await archive.open(page, '/views');
  await expect(page.getByText('No views yet.')).toBeVisible();
  await expect(page.getByText(/A view is a saved list of webpages/)).toBeVisible();
  await page.getByRole('link', { name: 'New view' }).click();
  await expect(page.getByRole('heading', { name: 'New view' })).toBeVisible();

  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('status')).toHaveText('30 webpages match');

  await page.getByLabel('Title').fill('Unread research from news and blogs');
  await page.getByLabel('Description').fill('Made in the editor');
  await addUnreadResearchFilters(page);
  await expect(chipsOf(page)).toHaveText([
    'Host is one of news.example.com, blog.example.org×',
    'Has label research×',
    'Unread×',
  ]);
  await page.getByLabel('Sort').selectOption({ label: 'Title Z→A' });

  const expected = unreadResearch(seeded);
  expect(expected.length).toBeGreaterThan(1);
  await expect(preview.getByRole('status')).toHaveText(`${expected.length} webpages match`);
  await expect(
    preview.getByRole('list', { name: 'First matching webpages' }).getByRole('listitem'),
  ).toHaveCount(expected.length);

  await page.getByRole('button', { name: 'Create view' }).click();
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}$/);
  const title = 'Unread research from news and blogs';
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(viewRows(page, title)).toHaveText(titlesOf(expected, 'desc'));
  await expect(page.getByText(`· ${expected.length} webpages`)).toBeVisible();
  // The view is in the navigation.
  await expect(
    page.getByRole('list', { name: 'Saved views' }).getByRole('link', { name: title }),
  ).toHaveAttribute('href', `/views/${viewIdOf(page)}`);

  // The server stored what the editor showed.
  const stored = await archive.api<StoredView>('GET', `/views/${viewIdOf(page)}`);
  expect(stored).toMatchObject({ title, sort: 2, match: 'and', description: 'Made in the editor' });
  expect(
    stored.filters.map(({ key, operator, rightOperand }) => ({ key, operator, rightOperand })),
  ).toEqual([
    { key: 'host', operator: true, rightOperand: ['news.example.com', 'blog.example.org'] },
    { key: 'label', operator: 0, rightOperand: ['research'] },
    { key: 'read-status', operator: false, rightOperand: undefined },
  ]);
});

test('edit a view’s filters and sort; the pages follow', async ({ page, archive }) => {
  const seeded = await seed(archive, variedPages(24));
  const view = await archive.api<StoredView>('POST', '/views', {
    title: 'Liked',
    sort: 1,
    filters: [{ type: 0, key: 'liked', operator: true }],
  });
  await archive.open(page, `/views/${view.id}`);
  await expect(viewRows(page, 'Liked')).toHaveText(titlesOf(seeded.filter((p) => p.liked)));

  await page.getByRole('link', { name: 'Edit view' }).click();
  await expect(page).toHaveURL(`${archive.url}/views/${view.id}/edit`);
  await expect(chipsOf(page)).toHaveText(['Liked×']);
  await page.getByRole('button', { name: 'Edit filter: Liked' }).click();
  await page
    .getByRole('group', { name: 'Edit filter' })
    .getByRole('radio', { name: 'Not liked' })
    .check();
  await page
    .getByRole('group', { name: 'Edit filter' })
    .getByRole('button', { name: 'Update filter' })
    .click();
  await addFilter(page, 'Labels', async (builder) => {
    await builder.getByLabel('The webpage').selectOption({ label: 'has none of these labels' });
    const labels = builder.getByRole('group', { name: 'Labels' });
    await labels.getByLabel('Search labels').fill('recipes');
    await labels.getByLabel('Search labels').press('Enter');
  });
  await page.getByRole('radio', { name: 'Any filter' }).check();
  await page.getByLabel('Title').fill('Not liked or no recipes');
  await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
  await page.getByLabel('Show only the first').check();
  await page.getByLabel('Number of webpages').fill('6');
  await expect(page.getByRole('region', { name: 'Preview' }).getByRole('status')).toHaveText(
    '6 webpages match',
  );
  await page.getByRole('button', { name: 'Save changes' }).click();

  // Folio's server changes the filters in place: same view, same address.
  await expect(page).toHaveURL(`${archive.url}/views/${view.id}`);
  const title = 'Not liked or no recipes';
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(chipsOf(page)).toHaveText(['Not liked', 'Lacks label recipes']);
  await expect(page.getByText('Any of:')).toBeVisible();
  // The seed uploads all at once, so "oldest first" is the server's order of first add time.
  const all = await archive.api<{
    webpages: {
      id: string;
      title: string;
      firstAddTime: number;
      liked: boolean;
      labels: string[];
    }[];
  }>('GET', '/webpages?per_page=100&sort=first_add_time_asc');
  const expected = all.webpages
    .filter((p) => !p.liked || !p.labels.includes('recipes'))
    .slice(0, 6);
  await expect(viewRows(page, title)).toHaveText(expected.map((p) => p.title));
  const stored = await archive.api<StoredView>('GET', `/views/${view.id}`);
  expect(stored).toMatchObject({ title, sort: 3, match: 'or', enableLimit: true, limit: 6 });
  expect(stored.filters.map(({ key, operator }) => [key, operator])).toEqual([
    ['liked', false],
    ['label', 3],
  ]);
});

test('save the library’s filters as a view, told what a view cannot express', async ({
  page,
  archive,
}) => {
  const seeded = await seed(archive, variedPages(24));
  await archive.open(page, '/?liked=yes&ext=html&sort=title_desc');
  await page.getByRole('button', { name: 'Save as view…' }).click();
  const panel = page.getByRole('form', { name: 'Save as view' });
  await expect(
    panel.getByRole('list', { name: 'Filters of the new view' }).getByRole('listitem'),
  ).toHaveText(['Liked']);
  await expect(panel).toContainText('Title Z→A');
  await expect(panel.getByRole('note')).toContainText(
    'Format (html): a view cannot filter by format, so it shows every format.',
  );
  await panel.getByLabel('View title').fill('Liked, any format');
  await panel.getByRole('button', { name: 'Save view' }).click();

  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}$/);
  // Every format: the view cannot narrow by it.
  const liked = seeded.filter((p) => p.liked);
  expect(new Set(liked.map((p) => p.ext)).size).toBeGreaterThan(1);
  await expect(viewRows(page, 'Liked, any format')).toHaveText(titlesOf(liked, 'desc'));
  const stored = await archive.api<StoredView>('GET', `/views/${viewIdOf(page)}`);
  expect(stored.sort).toBe(2);
});

test('delete a view after confirming; it leaves the list, the navigation and the server', async ({
  page,
  archive,
}) => {
  const keep = await archive.api<StoredView>('POST', '/views', { title: 'Keep me' });
  const doomed = await archive.api<StoredView>('POST', '/views', { title: 'Delete me' });
  await archive.open(page, '/views');
  const nav = page.getByRole('list', { name: 'Saved views' });
  await expect(nav.getByRole('link')).toHaveText(['Delete me', 'Keep me']);
  const item = page
    .getByRole('list', { name: 'Views' })
    .getByRole('listitem')
    .filter({
      has: page.getByRole('link', { name: 'Delete me', exact: true }),
    });
  await item.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('group', { name: /Delete the view “Delete me”\?/ });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(nav.getByRole('link')).toHaveCount(2);
  await item.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();

  await expect(page.getByRole('link', { name: 'Delete me', exact: true })).toHaveCount(0);
  await expect(nav.getByRole('link')).toHaveText(['Keep me']);
  const views = await archive.api<StoredView[]>('GET', '/views');
  expect(views.map((view) => view.id)).toEqual([keep.id]);
  await expect(archive.api('GET', `/views/${doomed.id}`)).rejects.toThrow(/404/);
});

/** 20 varied pages and the view of those labelled "recipes", A→Z, opened. */
async function openRecipes(page: Page, archive: Archive) {
  const seeded = await seed(archive, variedPages(20));
  const view = await archive.api<StoredView>('POST', '/views', {
    title: 'Recipes',
    sort: 1,
    filters: [{ type: 2, key: 'label', operator: 1, rightOperand: ['recipes'] }],
  });
  const titles = titlesOf(seeded.filter((p) => p.labels.includes('recipes')));
  await archive.open(page, `/views/${view.id}`);
  await expect(viewRows(page, 'Recipes')).toHaveText(titles);
  return { view, titles };
}

test('a webpage opened from a view moves within the view (keys and buttons)', async ({
  page,
  archive,
}) => {
  const { view, titles } = await openRecipes(page, archive);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: titles[1] })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('view')).toBe(view.id);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[2] })).toBeVisible();
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { level: 1, name: titles[0] })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.getByRole('link', { name: '← Recipes' }).click();
  await expect(page).toHaveURL(`${archive.url}/views/${view.id}`);
});

test('a view of 400 pages loads and draws the rows as the user scrolls, and Next crosses its pages', async ({
  page,
  archive,
}) => {
  test.setTimeout(120_000);
  const seeded = await seed(archive, variedPages(400));
  const view = await archive.api<StoredView>('POST', '/views', { title: 'Everything', sort: 1 });
  const viewPages: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith(`/views/${view.id}/webpages`)) viewPages.push(url.search);
  });
  await archive.open(page, `/views/${view.id}`);
  const titles = titlesOf(seeded);
  const rows = viewRows(page, 'Everything');
  await expect(rows.first()).toHaveText(titles[0]!);
  // Folio's server pages a view: the first 200 come first, the count says there are more.
  await expect(page.getByText('· 200+ webpages')).toBeVisible();
  expect(viewPages).toEqual(['?page=1&per_page=200']);
  expect(await rows.count()).toBeLessThan(100);
  // Scrolling to the end loads the next page; the end moves until the last webpage is drawn.
  const last = page.getByRole('link', { name: titles.at(-1)!, exact: true });
  await expect(async () => {
    await page.keyboard.press('End');
    await expect(last).toBeInViewport({ timeout: 1_000 });
  }).toPass();
  await expect(page.getByText('· 400 webpages')).toBeVisible();
  expect(viewPages).toEqual(['?page=1&per_page=200', '?page=2&per_page=200']);
  expect(await rows.count()).toBeLessThan(100);

  // Opened from the view with only its first page loaded, Next goes on into the second page.
  const at = seeded.find((p) => p.title === titles[199])!;
  await archive.open(page, `/webpages/${at.id}?view=${view.id}`);
  await expect(page.getByRole('heading', { level: 1, name: titles[199] })).toBeVisible();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[200] })).toBeVisible();
  await page.getByRole('button', { name: 'Previous', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[199] })).toBeVisible();
});

test('keys pressed while the next webpage loads move on from it, not again from the one shown', async ({
  page,
  archive,
}) => {
  const { view, titles } = await openRecipes(page, archive);
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: titles[0] })).toBeVisible();
  const details = await holdWebpageDetails(page);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  details.release();
  await expect(page.getByRole('heading', { level: 1, name: titles[3] })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('view')).toBe(view.id);
});

// A server that ignores filters in PATCH, as HamsterBase does (Folio's test switch).
test('on a server that ignores filters in PATCH, editing the filters recreates the view and moves to it', async ({
  page,
  quirkyArchive: archive,
}) => {
  const seeded = await seed(archive, variedPages(15));
  const old = await archive.api<StoredView>('POST', '/views', {
    title: 'Liked pages',
    description: 'kept across the recreate',
    sort: 1,
    filters: [{ type: 0, key: 'liked', operator: true }],
  });
  // The switch is on: a PATCH keeps the filters.
  const patched = await archive.api<StoredView>('PATCH', `/views/${old.id}`, { filters: [] });
  expect(patched.filters).toHaveLength(1);

  await archive.open(page, `/views/${old.id}/edit`);
  await page.getByRole('button', { name: 'Remove filter: Liked' }).click();
  await addFilter(page, 'Read status', async (builder) => {
    await builder.getByRole('radio', { name: 'Read', exact: true }).check();
  });
  await page.getByLabel('Title').fill('Read pages');
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect(page).not.toHaveURL(new RegExp(old.id));
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}$/);
  const newId = viewIdOf(page);
  await expect(page.getByRole('heading', { name: 'Read pages' })).toBeVisible();
  await expect(page.getByText(/saved it as a new view and deleted the old one/)).toBeVisible();
  await expect(viewRows(page, 'Read pages')).toHaveText(titlesOf(seeded.filter((p) => p.read)));
  await expect(chipsOf(page)).toHaveText(['Read']);

  const views = await archive.api<(StoredView & { description: string })[]>('GET', '/views');
  expect(views).toHaveLength(1);
  expect(views[0]).toMatchObject({
    id: newId,
    title: 'Read pages',
    description: 'kept across the recreate',
    sort: 1,
  });
  expect(views[0]!.filters.map(({ key, operator }) => [key, operator])).toEqual([
    ['read-status', true],
  ]);
  await expect(archive.api('GET', `/views/${old.id}`)).rejects.toThrow(/404/);
  await expect(page.getByRole('list', { name: 'Saved views' }).getByRole('link')).toHaveText([
    'Read pages',
  ]);
  // Back does not lead to the old view's editor.
  await page.goBack();
  await expect(page).not.toHaveURL(new RegExp(`${old.id}/edit`));
});
