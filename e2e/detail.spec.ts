// A webpage's details: inline edits, like / read, labels, highlights, the original file, delete with
// undo, and moving to the previous / next page of the list it was opened from. Every change is
// checked where it matters: on the server.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { byTitle, seed, type SeedPage } from './support/seed.ts';
import { holdWebpageDetails } from './support/slow-network.ts';

interface StoredWebpage {
  id: string;
  title: string;
  excerpt: string;
  link?: string;
  liked: boolean;
  read: boolean;
  labels: string[];
  ext: string;
}

const stored = (archive: Archive, id: string) =>
  archive.api<StoredWebpage>('GET', `/webpages/${id}`);

/** The server's HTTP status for a webpage (200, or 404 once it is deleted). */
async function statusOf(archive: Archive, id: string): Promise<number> {
  const response = await fetch(`${archive.url}/public/api/v1/webpages/${id}`, {
    headers: { authorization: `Bearer ${archive.token}` },
  });
  return response.status;
}

const heading = (page: Page, title: string) =>
  page.getByRole('heading', { name: title, exact: true, level: 1 });

/** Opens the library and then the page titled `title` from it, as a user does. */
async function openFromList(page: Page, archive: Archive, title: string, search = '') {
  await archive.open(page, `/${search}`);
  await page
    .getByRole('list', { name: 'Webpages' })
    .getByRole('link', { name: title, exact: true })
    .click();
  await expect(heading(page, title)).toBeVisible();
}

test('title, excerpt and link are edited inline; an invalid link is refused before sending', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(
    makeHtml({ title: 'Draft title', description: 'First excerpt' }),
    'html',
    { link: 'https://before.example.com/a' },
  );
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
  });
  await openFromList(page, archive, 'Draft title');

  // Title: Edit, type, Enter.
  await page.getByRole('button', { name: 'Edit title' }).click();
  const titleBox = page.getByRole('textbox', { name: 'Title', exact: true });
  await expect(titleBox).toHaveValue('Draft title');
  await titleBox.fill('A much better title');
  await titleBox.press('Enter');
  // Saved: the field closes (wait for it: another edit opened meanwhile would be closed with it).
  await expect(page.getByRole('button', { name: 'Edit title' })).toBeVisible();
  await expect(heading(page, 'A much better title')).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).title).toBe('A much better title');

  // Excerpt: a multi-line field, saved with the Save button.
  await page.getByRole('button', { name: 'Edit excerpt' }).click();
  const excerptBox = page.getByRole('textbox', { name: 'Excerpt', exact: true });
  await expect(excerptBox).toHaveValue('First excerpt');
  await excerptBox.fill('What this page is about, in one sentence.');
  await page
    .getByRole('form', { name: 'Edit excerpt' })
    .getByRole('button', { name: 'Save' })
    .click();
  await expect(page.getByRole('button', { name: 'Edit excerpt' })).toBeVisible();
  await expect(page.getByText('What this page is about, in one sentence.')).toBeVisible();
  await expect
    .poll(async () => (await stored(archive, id)).excerpt)
    .toBe('What this page is about, in one sentence.');

  // Link: not a URL → explained, nothing sent, the old link kept.
  const patchesBefore = patches.length;
  await page.getByRole('button', { name: 'Edit link' }).click();
  const linkBox = page.getByRole('textbox', { name: 'Link', exact: true });
  await linkBox.fill('not a link at all');
  await linkBox.press('Enter');
  const linkForm = page.getByRole('form', { name: 'Edit link' });
  await expect(linkForm.getByRole('alert')).toContainText('Enter an absolute http or https URL');
  await expect(linkBox).toHaveAttribute('aria-invalid', 'true');
  await linkBox.fill('javascript:alert(1)');
  await linkBox.press('Enter');
  await expect(linkForm.getByRole('alert')).toContainText('Enter an absolute http or https URL');
  expect(patches.slice(patchesBefore), 'PATCH requests for an invalid link').toEqual([]);
  expect((await stored(archive, id)).link).toBe('https://before.example.com/a');

  // A valid one is saved, and the host follows.
  await linkBox.fill('https://after.example.org/articles/42');
  await linkBox.press('Enter');
  await expect(
    page.getByRole('link', { name: 'https://after.example.org/articles/42' }),
  ).toBeVisible();
  await expect(page.getByText('after.example.org', { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await stored(archive, id)).link)
    .toBe('https://after.example.org/articles/42');

  // An empty link removes it.
  await page.getByRole('button', { name: 'Edit link' }).click();
  await page.getByRole('textbox', { name: 'Link', exact: true }).fill('');
  await page.getByRole('textbox', { name: 'Link', exact: true }).press('Enter');
  await expect(page.getByRole('button', { name: 'Edit link' })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).link).toBeUndefined();
  await expect(page.getByText('after.example.org', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit link' }).click();
  await page
    .getByRole('textbox', { name: 'Link', exact: true })
    .fill('https://after.example.org/articles/42');
  await page.getByRole('textbox', { name: 'Link', exact: true }).press('Enter');
  await expect(page.getByRole('button', { name: 'Edit link' })).toBeVisible();
  await expect
    .poll(async () => (await stored(archive, id)).link)
    .toBe('https://after.example.org/articles/42');

  // Escape cancels an edit without sending it.
  const patchesBeforeCancel = patches.length;
  await page.getByRole('button', { name: 'Edit title' }).click();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Never saved');
  await page.getByRole('textbox', { name: 'Title', exact: true }).press('Escape');
  await expect(heading(page, 'A much better title')).toBeVisible();
  expect(patches.length).toBe(patchesBeforeCancel);

  // The list shows the new title and host after going back.
  await page.getByRole('link', { name: '← Library' }).click();
  const row = page
    .getByRole('list', { name: 'Webpages' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'A much better title', exact: true }) });
  await expect(row.getByRole('link', { name: 'after.example.org' })).toBeVisible();
  expect((await stored(archive, id)).title).toBe('A much better title');
});

test('like and read toggle on the server; labels are added from a suggestion and removed; highlights show', async ({
  page,
  archive,
}) => {
  const [target, other] = await seed(archive, [
    {
      title: 'Page to organise',
      host: 'organise.example.com',
      ext: 'mhtml',
      liked: false,
      read: false,
      labels: ['inbox'],
    },
    {
      title: 'Page with a label',
      host: 'other.example.com',
      ext: 'html',
      liked: false,
      read: false,
      labels: ['reading-list'],
    },
  ] satisfies SeedPage[]);
  expect(other!.labels).toEqual(['reading-list']);
  const id = target!.id;
  await archive.api('POST', `/webpages/${id}/highlights`, {
    text: 'the one sentence worth keeping',
    textBefore: 'Before ',
    textAfter: ' after.',
    note: 'Quote this in the report',
  });
  await openFromList(page, archive, 'Page to organise');

  // Like, then unlike; read, then unread. The server follows each click.
  await page.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unlike', exact: true })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).liked).toBe(true);
  await page.getByRole('button', { name: 'Mark as read', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Mark as unread', exact: true })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).read).toBe(true);
  await page.getByRole('button', { name: 'Unlike', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).liked).toBe(false);
  await page.getByRole('button', { name: 'Mark as unread', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Mark as read', exact: true })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).read).toBe(false);

  // Labels: the field suggests the labels in use elsewhere, not the ones the page has.
  const labels = page.getByRole('list', { name: 'Labels' });
  await expect(labels.getByRole('listitem')).toHaveText([/inbox/]);
  const newLabel = page.getByRole('combobox', { name: 'New label' });
  const suggestions = page.locator(`datalist#${await newLabel.getAttribute('list')} option`);
  await expect
    .poll(() =>
      suggestions.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    )
    .toEqual(['reading-list']);
  await newLabel.fill('reading-list');
  await page.getByRole('button', { name: 'Add label' }).click();
  await expect(labels.getByRole('listitem')).toHaveText([/inbox/, /reading-list/]);
  await newLabel.fill('  to-cite ');
  await newLabel.press('Enter');
  await expect(labels.getByRole('listitem')).toHaveText([/inbox/, /reading-list/, /to-cite/]);
  await expect
    .poll(async () => (await stored(archive, id)).labels)
    .toEqual(['inbox', 'reading-list', 'to-cite']);

  await page.getByRole('button', { name: 'Remove label inbox' }).click();
  await expect(labels.getByRole('listitem')).toHaveText([/reading-list/, /to-cite/]);
  await expect
    .poll(async () => (await stored(archive, id)).labels)
    .toEqual(['reading-list', 'to-cite']);

  // The highlight made through the API, with its note.
  await expect(page.getByRole('heading', { name: 'Highlights (1)' })).toBeVisible();
  await expect(page.getByText('the one sentence worth keeping', { exact: true })).toBeVisible();
  await expect(page.getByText('Quote this in the report', { exact: true })).toBeVisible();

  // After a reload everything is as the server has it.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as read', exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Labels' }).getByRole('listitem')).toHaveText([
    /reading-list/,
    /to-cite/,
  ]);
});

test('"Download original" saves the stored bytes, named after the title with the right extension', async ({
  page,
  archive,
}) => {
  const png = makePng(8, 8);
  const files = [
    {
      ext: 'html' as const,
      title: 'Downloadable HTML',
      file: makeHtml({ title: 'Downloadable HTML', body: '<p>html bytes</p>' }),
    },
    {
      ext: 'mhtml' as const,
      title: 'Downloadable MHTML: part 1/2',
      file: makeMhtml({
        html: '<html><head><title>Downloadable MHTML: part 1/2</title></head><body><img src="a.png"></body></html>',
        url: 'https://download.example.com/mhtml',
        resources: [
          { url: 'https://download.example.com/a.png', contentType: 'image/png', body: png },
        ],
      }),
    },
    {
      ext: 'webarchive' as const,
      title: 'Downloadable webarchive',
      file: makeWebarchive({
        html: '<html><head><title>Downloadable webarchive</title></head><body>safari</body></html>',
        url: 'https://download.example.com/webarchive',
      }),
    },
  ];
  const ids = await Promise.all(files.map(({ file, ext }) => archive.upload(file, ext)));

  for (const [index, { ext, title, file }] of files.entries()) {
    const { id } = ids[index]!;
    await archive.open(page, `/webpages/${id}`);
    await expect(heading(page, title)).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download original' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(new RegExp(`\\.${ext}$`));
    // Characters a file system refuses (":" and "/") do not make it into the name.
    expect(saved.suggestedFilename()).not.toMatch(/[/:]/);
    const bytes = await readFile(await saved.path());
    expect(bytes.length).toBe(file.length);
    expect(createHash('sha256').update(bytes).digest('hex'), `sha256 of the ${ext} download`).toBe(
      id,
    );
  }
});

test('delete offers Undo: undone, the page stays; not undone (or the tab left), the server forgets it', async ({
  page,
  archive,
}) => {
  const seeded = await seed(archive, [
    {
      title: 'Deleted then restored',
      host: 'undo.example.com',
      ext: 'html',
      liked: true,
      read: false,
      labels: ['keep'],
    },
    {
      title: 'Deleted for good',
      host: 'undo.example.com',
      ext: 'webarchive',
      liked: false,
      read: false,
      labels: [],
    },
    {
      title: 'Deleted, then the tab reloaded',
      host: 'undo.example.com',
      ext: 'mhtml',
      liked: false,
      read: false,
      labels: [],
    },
  ] satisfies SeedPage[]);
  const [kept, removed, leaving] = seeded;
  const deletes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') deletes.push(request.url());
  });
  // The app's timers run on a clock the test moves, so the undo window passes without waiting.
  await page.clock.install();
  const list = page.getByRole('list', { name: 'Webpages' });
  /** A message of the app's notifications (a polite live region). */
  const notice = (text: string) => page.getByText(text, { exact: true });
  const undo = page.getByRole('button', { name: 'Undo', exact: true });

  await openFromList(page, archive, 'Deleted then restored');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // Back on the list, without the page, and a message offers to undo.
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Deleted then restored' })).toHaveCount(0);
  await expect(notice('Deleted “Deleted then restored”')).toBeVisible();
  await undo.click();
  await expect(notice('Restored “Deleted then restored”')).toBeVisible();
  await expect(
    list.getByRole('link', { name: 'Deleted then restored', exact: true }),
  ).toBeVisible();
  // Well past the window: nothing was sent, the page and its likes and labels are there.
  await page.clock.runFor(10_000);
  expect(deletes).toEqual([]);
  expect(await stored(archive, kept!.id)).toMatchObject({ liked: true, labels: ['keep'] });

  await list.getByRole('link', { name: 'Deleted for good', exact: true }).click();
  await expect(heading(page, 'Deleted for good')).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(notice('Deleted “Deleted for good”')).toBeVisible();
  await expect(list.getByRole('link', { name: 'Deleted for good' })).toHaveCount(0);
  // Still on the server while it can be undone…
  expect(await statusOf(archive, removed!.id)).toBe(200);
  // …and gone once the window has closed.
  await page.clock.runFor(10_000);
  await expect.poll(() => statusOf(archive, removed!.id)).toBe(404);
  expect(deletes).toEqual([`${archive.url}/public/api/v1/webpages/${removed!.id}`]);
  await expect(undo).toHaveCount(0);
  expect(await statusOf(archive, kept!.id)).toBe(200);
  await page.reload();
  await expect(
    list.getByRole('link', { name: 'Deleted then restored', exact: true }),
  ).toBeVisible();
  await expect(list.getByRole('link', { name: 'Deleted for good' })).toHaveCount(0);

  // Leaving the app during the window does not lose the delete: it is sent as the page goes.
  await list.getByRole('link', { name: leaving!.title, exact: true }).click();
  await expect(heading(page, leaving!.title)).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(notice(`Deleted “${leaving!.title}”`)).toBeVisible();
  await page.reload();
  await expect.poll(() => statusOf(archive, leaving!.id)).toBe(404);
  await expect(
    list.getByRole('link', { name: 'Deleted then restored', exact: true }),
  ).toBeVisible();
  await expect(list.getByRole('link', { name: leaving!.title })).toHaveCount(0);
});

test.describe('Previous and Next follow the list the page was opened from', () => {
  // 33 pages: title A→Z puts 30 on page 1 and 3 on page 2; odd numbers are liked.
  const pages: SeedPage[] = Array.from({ length: 33 }, (_, i) => ({
    title: `Neighbour ${String(i + 1).padStart(2, '0')}`,
    host: 'neighbours.example.com',
    ext: 'html',
    liked: i % 2 === 0,
    read: false,
    labels: [],
  }));
  const titles = byTitle(pages);

  async function setUp(page: Page, archive: Archive) {
    const seeded = await seed(archive, pages);
    const idOf = (title: string) => seeded.find((p) => p.title === title)!.id;
    return {
      previous: page.getByRole('button', { name: 'Previous', exact: true }),
      next: page.getByRole('button', { name: 'Next', exact: true }),
      expectOn: async (title: string) => {
        await expect(page).toHaveURL(`${archive.url}/webpages/${idOf(title)}`);
        await expect(heading(page, title)).toBeVisible();
      },
    };
  }

  test('within a page of the list', async ({ page, archive }) => {
    const { previous, next, expectOn } = await setUp(page, archive);
    await openFromList(page, archive, titles[1]!, '?sort=title_asc');
    await next.click();
    await expectOn(titles[2]!);
    await previous.click();
    await previous.click();
    await expectOn(titles[0]!);
    await expect(previous).toBeDisabled();
  });

  test('across the list’s pages, also after a reload', async ({ page, archive }) => {
    const { previous, next, expectOn } = await setUp(page, archive);
    // From the first of page 2 to the last of page 1 and back.
    await archive.open(page, '/?sort=title_asc&page=2');
    await page.getByRole('link', { name: titles[30]!, exact: true }).click();
    await expectOn(titles[30]!);
    await previous.click();
    await expectOn(titles[29]!);
    // The list a page was opened from survives a reload.
    await page.reload();
    await expect(heading(page, titles[29]!)).toBeVisible();
    await next.click();
    await expectOn(titles[30]!);
    await next.click();
    await next.click();
    await expectOn(titles[32]!);
    await expect(next).toBeDisabled();
    // "← Library" returns to the list the page belongs to now.
    await page.getByRole('link', { name: '← Library' }).click();
    await expect(page).toHaveURL(`${archive.url}/?sort=title_asc&page=2`);
  });

  test('in a filtered list', async ({ page, archive }) => {
    const { previous, next, expectOn } = await setUp(page, archive);
    // Only liked pages (odd numbers).
    await openFromList(page, archive, 'Neighbour 03', '?liked=yes&sort=title_asc');
    await next.click();
    await expectOn('Neighbour 05');
    await previous.click();
    await previous.click();
    await expectOn('Neighbour 01');
  });
});

test('keys pressed while the next webpage loads move on from it within the list', async ({
  page,
  archive,
}) => {
  const pages: SeedPage[] = Array.from({ length: 8 }, (_, i) => ({
    title: `Quick ${String(i + 1).padStart(2, '0')}`,
    host: 'quick.example.com',
    ext: 'html',
    liked: false,
    read: false,
    labels: [],
  }));
  await seed(archive, pages);
  const titles = byTitle(pages);
  await openFromList(page, archive, titles[0]!, '?sort=title_asc');
  const details = await holdWebpageDetails(page);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  details.release();
  await expect(heading(page, titles[3]!)).toBeVisible();
  details.hold();
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  details.release();
  await expect(heading(page, titles[1]!)).toBeVisible();
});

test('reading through the unread list: after "Mark as read", Next goes on to the next unread page', async ({
  page,
  archive,
}) => {
  const titles = ['Unread A', 'Unread B', 'Unread C', 'Unread D'];
  await seed(
    archive,
    titles.map((title) => ({
      title,
      host: 'unread.example.com',
      ext: 'html' as const,
      liked: false,
      read: false,
      labels: [],
    })),
  );
  await openFromList(page, archive, 'Unread B', '?read=no&sort=title_asc');
  // The list the page was opened from is asked for again after the change: wait for that answer.
  const listRefreshed = page.waitForResponse(
    (response) =>
      response.request().method() === 'GET' &&
      /\/public\/api\/v1\/webpages\?.*read=false/.test(response.url()),
  );
  await page.getByRole('button', { name: 'Mark as read', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Mark as unread', exact: true })).toBeVisible();
  await listRefreshed;
  // The page has left the unread list; its neighbours there are still A and C.
  const next = page.getByRole('button', { name: 'Next', exact: true });
  // (A short timeout: a disabled button would otherwise be waited for until the test times out.)
  await next.click({ timeout: 10_000 });
  await expect(heading(page, 'Unread C')).toBeVisible();
  await page.getByRole('button', { name: 'Mark as read', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Mark as unread', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Previous', exact: true }).click({ timeout: 10_000 });
  await expect(heading(page, 'Unread A')).toBeVisible();
});

test('another capture of the same link is listed under "Also saved on" and opens', async ({
  page,
  archive,
}) => {
  const link = 'https://history.example.com/front-page?edition=1';
  const html = (title: string) =>
    `<html><head><title>${title}</title></head><body><p>${title}</p></body></html>`;
  const march = new Date(Date.UTC(2024, 2, 1, 8, 0));
  const june = new Date(Date.UTC(2025, 5, 15, 18, 30));
  const first = await archive.upload(
    makeMhtml({ html: html('Front page, March'), url: link, date: march }),
    'mhtml',
    { link },
  );
  const second = await archive.upload(
    makeMhtml({ html: html('Front page, June'), url: link, date: june }),
    'mhtml',
    { link },
  );
  // Same host, another link: not a capture of this page.
  await archive.upload(makeHtml({ title: 'Another edition' }), 'html', {
    link: 'https://history.example.com/front-page?edition=2',
  });
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
  });

  await openFromList(page, archive, 'Front page, March');
  const history = page.getByRole('region', { name: 'Also saved on' });
  await expect(history.getByRole('link')).toHaveCount(1);
  const toJune = history.getByRole('link');
  await expect(toJune).toHaveAttribute('href', `/webpages/${second.id}`);
  await expect(toJune.locator('time')).toHaveAttribute('datetime', june.toISOString());

  await toJune.click();
  await expect(heading(page, 'Front page, June')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/webpages/${second.id}$`));
  const back = page.getByRole('region', { name: 'Also saved on' }).getByRole('link');
  await expect(back).toHaveCount(1);
  await expect(back).toHaveAttribute('href', `/webpages/${first.id}`);
  await expect(back.locator('time')).toHaveAttribute('datetime', march.toISOString());

  // The other edition has no other capture: no "Also saved on" once they were asked for.
  await archive.open(page, '/');
  const asked = page.waitForResponse(
    (response) => new URL(response.url()).searchParams.get('link') === `${link.slice(0, -1)}2`,
  );
  await page
    .getByRole('list', { name: 'Webpages' })
    .getByRole('link', { name: 'Another edition', exact: true })
    .click();
  await expect(heading(page, 'Another edition')).toBeVisible();
  await asked;
  await expect(page.getByText('Also saved on')).toHaveCount(0);
  expect(writes).toEqual([]);
});
