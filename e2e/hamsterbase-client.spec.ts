// Against a server that is not Folio's, the client leaves no trace and asks no more than it needs:
// the view editor previews with list requests only (never a view created and deleted), an upload
// from another origin reads no hidden header, the facets are asked for once per server, and the
// link field says what the server does with an empty link. The HamsterBase-like server is Folio's
// own with its test switch (FOLIO_AS_HAMSTERBASE=1: no /facets, no /views/preview, a /version
// without Folio's name, an empty link refused).
import type { Page, Request } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { byTitle, seed, variedPages } from './support/seed.ts';
import { addFilter, addUnreadResearchFilters, unreadResearch } from './support/view-editor.ts';

/** The API requests the page sends, as `METHOD /path?query` (without the API prefix). */
function recordApi(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/public/api/v1/')) return;
    seen.push(`${request.method()} ${url.pathname.slice('/public/api/v1'.length)}${url.search}`);
  });
  return seen;
}

test('the view editor previews from the list on a server without a preview, and writes nothing', async ({
  page,
  hamster,
}) => {
  const seeded = await seed(hamster, variedPages(30));
  const api = recordApi(page);
  await hamster.open(page, '/views/new');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('status')).toHaveText('30 webpages match');

  await addUnreadResearchFilters(page);
  await page.getByLabel('Sort').selectOption({ label: 'Title Z→A' });
  const expected = unreadResearch(seeded);
  expect(expected.length).toBeGreaterThan(1);
  await expect(preview.getByRole('status')).toHaveText(`${expected.length} webpages match`);
  await expect(
    preview.getByRole('list', { name: 'First matching webpages' }).locator('.view-preview__title'),
  ).toHaveText(byTitle(expected, 'desc'));

  // A date has no list parameter: no preview, said plainly.
  await addFilter(page, 'Date added', async () => {});
  await expect(preview.getByRole('status')).toHaveText('Preview not available on this server');
  await expect(preview.getByRole('list', { name: 'First matching webpages' })).toHaveCount(0);
  await expectNoSeriousViolations(page, 'the editor without a preview');

  // Not one view was created or deleted to show these previews; the server was asked once whether
  // it has a preview of its own.
  const viewWrites = api.filter((line) =>
    /^(POST|PATCH|DELETE) \/views(\/(?!preview)|$|\?)/.test(line),
  );
  expect(viewWrites).toEqual([]);
  expect(api.filter((line) => line.startsWith('POST /views/preview'))).toHaveLength(1);
  expect(api.some((line) => line.startsWith('GET /webpages?'))).toBe(true);
  expect(await hamster.api('GET', '/views')).toEqual([]);
});

test('an upload from another origin reads no header the server does not expose', async ({
  page,
  archive,
}) => {
  // The app from http://localhost:<port>, the archive at http://127.0.0.1:<port>: two origins.
  const appOrigin = archive.url.replace('127.0.0.1', 'localhost');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  await page.goto(`${appOrigin}/settings#token=${encodeURIComponent(archive.token)}`);
  await page.getByLabel('Base URL', { exact: true }).fill(archive.url);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(`${appOrigin}/`);

  await page.goto(`${appOrigin}/upload`);
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'cross-origin.html',
    mimeType: 'text/html',
    buffer: makeHtml({ title: 'Sent across origins' }),
  });
  const row = page
    .getByRole('region', { name: 'Files' })
    .getByRole('listitem', { name: 'cross-origin.html', exact: true });
  await expect(row).toHaveAttribute('data-status', 'added');
  const stored = await archive.api<{ webpages: { title: string }[] }>('GET', '/webpages');
  expect(stored.webpages.map((webpage) => webpage.title)).toEqual(['Sent across origins']);
  expect(errors.filter((text) => /unsafe header/i.test(text))).toEqual([]);
});

test('the facets are asked for once per server, however often the menus open', async ({
  page,
  hamster,
}) => {
  const seeded = await seed(hamster, variedPages(12));
  const api = recordApi(page);
  await hamster.open(page, '/');
  await expect(page.getByRole('list', { name: 'Webpages' }).getByRole('listitem')).toHaveCount(12);

  const menu = async (name: 'Hosts' | 'Labels', panel: string, value: string) => {
    await page.getByRole('button', { name, exact: true }).click();
    const group = page.getByRole('group', { name: panel });
    await expect(group.getByRole('checkbox', { name: value })).toBeVisible();
    await group.getByRole('button', { name: 'Done' }).click();
    await expect(group).toHaveCount(0);
  };
  for (let open = 0; open < 3; open++) {
    await menu('Hosts', 'Filter by host', 'news.example.com');
    await menu('Labels', 'Filter by label', 'research');
  }
  // A new label makes the facets stale: the next menu reads them again, without asking for /facets.
  await hamster.api('PATCH', `/webpages/${seeded[0]!.id}`, { labels: ['fresh-label'] });
  await page.getByRole('link', { name: seeded[0]!.title }).click();
  await page.getByRole('button', { name: 'Remove label fresh-label' }).click();
  await expect(page.getByRole('button', { name: 'Remove label fresh-label' })).toHaveCount(0);
  await page.goBack();
  await menu('Labels', 'Filter by label', 'research');
  await menu('Hosts', 'Filter by host', 'news.example.com');

  expect(api.filter((line) => line.startsWith('GET /facets'))).toHaveLength(1);
});

const LINKED = 'https://linked.example/a';

/** Opens a page with a link on the given server and opens its link editor. */
async function editLinkOf(page: Page, target: Archive): Promise<string> {
  const { id } = await target.upload(makeHtml({ title: 'Linked page' }), 'html', {
    link: LINKED,
  });
  await target.open(page, `/webpages/${id}`);
  await page.getByRole('button', { name: 'Edit link' }).click();
  return id;
}

test('the link field says HamsterBase refuses an empty link, and sends nothing', async ({
  page,
  hamster,
}) => {
  const form = page.getByRole('form', { name: 'Edit link' });
  const box = page.getByRole('textbox', { name: 'Link', exact: true });
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches.push(request.url());
  });
  const hamsterId = await editLinkOf(page, hamster);
  await expect(form).toContainText('An absolute http or https URL; this server requires a link.');
  await box.fill('');
  await box.press('Enter');
  await expect(form.getByRole('alert')).toHaveText(
    'This server requires a link: it cannot remove one.',
  );
  expect(patches).toEqual([]);
  await expectNoSeriousViolations(page, 'the link field refusing an empty link');
  expect((await hamster.api<{ link?: string }>('GET', `/webpages/${hamsterId}`)).link).toBe(LINKED);
});

test('the link field says Folio’s server removes a link left empty, and it does', async ({
  page,
  archive,
}) => {
  const form = page.getByRole('form', { name: 'Edit link' });
  const box = page.getByRole('textbox', { name: 'Link', exact: true });
  const folioId = await editLinkOf(page, archive);
  await expect(form).toContainText('An absolute http or https URL; empty removes the link.');
  await box.fill('');
  await box.press('Enter');
  await expect(page.getByRole('button', { name: 'Edit link' })).toBeVisible();
  await expect
    .poll(async () => (await archive.api<{ link?: string }>('GET', `/webpages/${folioId}`)).link)
    .toBeUndefined();
});
