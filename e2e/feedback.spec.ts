// Feedback in a real browser: every change says what happened (with Undo where it can be taken
// back, and the server's reason when it was refused), anything slower than a second shows a
// progress bar, dates are relative with the exact date on hover, and sizes are for humans.
import type { Page, Route } from '@playwright/test';
import { formatBytes } from '../src/lib/display.ts';
import { makeHtml, makeMhtml, withMissingStartPart } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { gate } from './support/gate.ts';
import { trackRequests } from './support/settled.ts';

interface StoredWebpage {
  id: string;
  title: string;
  link?: string;
  liked: boolean;
  read: boolean;
  labels: string[];
  size: number;
  firstAddTime: number;
}

interface StoredView {
  id: string;
  title: string;
  description: string;
  sort: number;
  match: string;
  enableLimit: boolean;
  limit: number;
  filters: Record<string, unknown>[];
}

const stored = (archive: Archive, id: string) =>
  archive.api<StoredWebpage>('GET', `/webpages/${id}`);

/** Text that starts with `text`, case-sensitive (a plain `hasText` would take "Unliked" for "Liked"). */
const startsWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
/** A message of the notifications region that says something went as asked. */
const done = (page: Page, text: string) =>
  page
    .locator('.toasts')
    .getByRole('status')
    .filter({ hasText: startsWith(text) });
/** A message of the notifications region that says why something was not done. */
const refused = (page: Page, text: string) =>
  page
    .locator('.toasts')
    .getByRole('alert')
    .filter({ hasText: startsWith(text) });
const progress = (page: Page) => page.getByRole('progressbar', { name: 'Working…' });

async function upload(archive: Archive, title: string, link = 'https://feedback.example/page') {
  return archive.upload(
    makeHtml({ title, singleFileUrl: link, body: `<h1>${title}</h1><p>Feedback.</p>` }),
    'html',
  );
}

/** Answers the next requests matching `method` with the server error `message`. */
function refuse(method: string, message: string) {
  return (route: Route) =>
    route.request().method() === method
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, error: 'internal', message }),
        })
      : route.fallback();
}

test('on a webpage, like, read, edits and labels each say what happened, and Undo takes it back on the server', async ({
  page,
  archive,
}) => {
  const { id } = await upload(archive, 'Feedback page');
  await archive.open(page, `/webpages/${id}`);
  await expect(page.getByRole('heading', { name: 'Feedback page', level: 1 })).toBeVisible();

  // Like, then Undo.
  await page.getByRole('button', { name: 'Like', exact: true }).click();
  const liked = done(page, 'Liked “Feedback page”');
  await expect(liked).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).liked).toBe(true);
  await liked.getByRole('button', { name: 'Undo: Liked “Feedback page”' }).click();
  await expect(done(page, 'Unliked “Feedback page”')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).liked).toBe(false);

  // Read, with its own message.
  await page.getByRole('button', { name: 'Mark as read' }).click();
  await expect(done(page, 'Marked “Feedback page” as read')).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).read).toBe(true);

  // The title, then Undo.
  await page.getByRole('button', { name: 'Edit title' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Renamed page');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Renamed page', level: 1 })).toBeVisible();
  const savedTitle = done(page, 'Saved the title');
  await expect(savedTitle).toBeVisible();
  expect((await stored(archive, id)).title).toBe('Renamed page');
  await savedTitle.getByRole('button', { name: 'Undo: Saved the title' }).click();
  await expect(done(page, 'Restored the title')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Feedback page', level: 1 })).toBeVisible();
  expect((await stored(archive, id)).title).toBe('Feedback page');

  // The link.
  await page.getByRole('button', { name: 'Edit link' }).click();
  await page.getByRole('textbox', { name: 'Link' }).fill('https://moved.example/page');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(done(page, 'Saved the link')).toBeVisible();
  expect((await stored(archive, id)).link).toBe('https://moved.example/page');

  // A label, added then removed, then the removal undone.
  await page.getByRole('combobox', { name: 'New label' }).fill('feedback');
  await page.getByRole('button', { name: 'Add label' }).click();
  await expect(done(page, 'Added the label “feedback”')).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).labels).toEqual(['feedback']);
  await page.getByRole('button', { name: 'Remove label feedback' }).click();
  const removed = done(page, 'Removed the label “feedback”');
  await expect(removed).toBeVisible();
  await expect.poll(async () => (await stored(archive, id)).labels).toEqual([]);
  await removed.getByRole('button', { name: 'Undo: Removed the label “feedback”' }).click();
  await expect.poll(async () => (await stored(archive, id)).labels).toEqual(['feedback']);
  await expect(page.getByRole('list', { name: 'Labels' }).getByText('feedback')).toBeVisible();
});

test('a refused like rolls back and says why; a download says what it saved, or why it could not', async ({
  page,
  archive,
}) => {
  const { id } = await upload(archive, 'Refused page');
  // The original is refused from the start (else the download takes the preview's copy).
  await page.route(`**/public/api/v1/webpages/${id}/content`, refuse('GET', 'blob missing'));
  await archive.open(page, `/webpages/${id}`);
  await expect(page.getByRole('heading', { name: 'Refused page', level: 1 })).toBeVisible();

  await page.route(`**/public/api/v1/webpages/${id}`, refuse('PATCH', 'database is locked'));
  await page.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(refused(page, 'Could not like “Refused page”: database is locked')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  expect((await stored(archive, id)).liked).toBe(false);
  await page.unroute(`**/public/api/v1/webpages/${id}`);

  // The detail's actions and the preview's error (its original could not be read) both offer it.
  const downloadButtons = page.getByRole('button', { name: 'Download original' });
  await expect(downloadButtons).toHaveCount(2);
  await downloadButtons.first().click();
  await expect(refused(page, 'Could not download “Refused page”: blob missing')).toBeVisible();
  await page.unroute(`**/public/api/v1/webpages/${id}/content`);

  const { size } = await stored(archive, id);
  const downloading = page.waitForEvent('download');
  await downloadButtons.last().click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Refused page.html');
  await expect(done(page, `Downloaded “Refused page.html” (${formatBytes(size)})`)).toBeVisible();
});

test('the detail shows dates relative to now with the exact date on hover, and a human size', async ({
  page,
  archive,
}) => {
  const { id } = await upload(archive, 'Dated page');
  const { firstAddTime, size } = await stored(archive, id);
  await archive.open(page, `/webpages/${id}`);
  const info = page.getByRole('region', { name: 'Information' });
  const added = info.locator('dt:text-is("Added") + dd time');
  await expect(added).toHaveText(/^(now|\d+ seconds? ago|1 minute ago)$/);
  const exact = await page.evaluate(
    (epochMs) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        epochMs,
      ),
    firstAddTime,
  );
  await expect(added).toHaveAttribute('title', exact);
  await expect(added).toHaveAttribute('datetime', new Date(firstAddTime).toISOString());
  await expect(info.locator('dt:text-is("Size") + dd')).toHaveText(formatBytes(size));
  expect(formatBytes(size)).toMatch(/^\d+(\.\d)? (B|kB)$/);
});

test('bulk changes say so with an Undo the server follows', async ({ page, archive }) => {
  await upload(archive, 'Bulk one', 'https://bulk.example/1');
  await upload(archive, 'Bulk two', 'https://bulk.example/2');
  await archive.open(page, '/');
  await page.getByRole('checkbox', { name: 'Select Bulk one' }).click();
  await page.getByRole('checkbox', { name: 'Select Bulk two' }).click();
  await page
    .getByRole('group', { name: 'Bulk actions' })
    .getByRole('button', { name: 'Like', exact: true })
    .click();
  const liked = done(page, 'Liked 2 webpages.');
  await expect(liked).toBeVisible();
  const likes = async () =>
    (await archive.api<{ webpages: StoredWebpage[] }>('GET', '/webpages')).webpages.map(
      (webpage) => webpage.liked,
    );
  await expect.poll(likes).toEqual([true, true]);
  await liked.getByRole('button', { name: 'Undo: Liked 2 webpages.' }).click();
  await expect(done(page, 'Undone: Liked 2 webpages.')).toBeVisible();
  await expect.poll(likes).toEqual([false, false]);
});

test('views: creating, saving and deleting say so, and Undo brings a deleted view back', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/views/new');
  await page.getByLabel('Title').fill('Feedback view');
  await page.getByRole('button', { name: 'Create view' }).click();
  await expect(done(page, 'Created the view “Feedback view”')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Feedback view', level: 1 })).toBeVisible();

  await page.getByRole('link', { name: 'Edit view' }).click();
  await page.getByLabel('Description').fill('Edited');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(done(page, 'Saved the view “Feedback view”')).toBeVisible();

  const definition = {
    title: 'Unread feedback',
    description: 'Kept by Undo',
    sort: 2,
    enableLimit: true,
    limit: 7,
    match: 'or',
    filters: [
      { type: 0, key: 'read-status', operator: false },
      { type: 2, key: 'label', operator: 0, rightOperand: ['feedback'] },
    ],
  };
  const original = await archive.api<StoredView>('POST', '/views', definition);
  await page.goto(`${archive.url}/views`);
  const item = page
    .getByRole('list', { name: 'Views', exact: true })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Unread feedback', exact: true }) });
  await item.getByRole('button', { name: 'Delete' }).click();
  await item
    .getByRole('group', { name: /Delete the view/ })
    .getByRole('button', { name: 'Delete' })
    .click();
  const deleted = done(page, 'Deleted the view “Unread feedback”');
  await expect(deleted).toBeVisible();
  await expect(page.getByRole('link', { name: 'Unread feedback', exact: true })).toHaveCount(0);
  await deleted.getByRole('button', { name: 'Undo: Deleted the view “Unread feedback”' }).click();
  await expect(done(page, 'Restored the view “Unread feedback”')).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Views', exact: true })
      .getByRole('link', { name: 'Unread feedback', exact: true }),
  ).toBeVisible();

  const views = await archive.api<StoredView[]>('GET', '/views');
  const restored = views.find((view) => view.title === 'Unread feedback');
  expect(restored?.id).not.toBe(original.id);
  const { id: _id, filters, ...settings } = restored!;
  expect({
    ...settings,
    filters: filters.map(({ id: _filterId, ...filter }) => filter),
  }).toMatchObject(definition);
});

test('uploads end with one message: a batch is counted, a single page can be opened', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  // The drop zone and the notifications load right after the first paint.
  await expect(page.locator('.toasts')).toBeAttached();
  await page.getByRole('link', { name: 'Upload' }).click();
  const file = (name: string, title: string) => ({
    name,
    mimeType: 'text/html',
    buffer: makeHtml({ title, body: `<h1>${title}</h1>` }),
  });
  await page.getByLabel('Files to upload').setInputFiles([
    file('first.html', 'First upload'),
    file('second.html', 'Second upload'),
    {
      // Whole at its end, so the page cannot tell before sending; the server refuses it.
      name: 'truncated.mhtml',
      mimeType: 'multipart/related',
      buffer: withMissingStartPart(makeMhtml({ html: '<html><body><p>Start</p></body></html>' })),
    },
  ]);
  const batch = refused(page, 'Uploads finished: 2 webpages added, 1 failed');
  await expect(batch).toBeVisible();
  await expect(batch).toContainText(
    'truncated.mhtml: Could not be read as MHTML: the file is truncated: the start part it declares is missing',
  );
  await expect(page.locator('.toasts').getByRole('status')).toHaveCount(0);

  // A single upload: the message offers to open its page.
  await page.getByLabel('Files to upload').setInputFiles([file('third.html', 'Third upload')]);
  const single = done(page, 'Added “Third upload”');
  await expect(single).toBeVisible();
  await single.getByRole('button', { name: 'Open “Third upload”' }).click();
  await expect(page.getByRole('heading', { name: 'Third upload', level: 1 })).toBeVisible();
});

test('saving the connection settings says so', async ({ page, archive }) => {
  await archive.open(page, '/settings');
  await page.getByLabel('Token', { exact: true }).fill(archive.token);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  await expect(done(page, `Saved: Folio now uses the archive at ${archive.url}`)).toBeVisible();
});

test('anything slower than a second shows a progress bar until it is done', async ({
  page,
  archive,
}) => {
  const { id } = await upload(archive, 'Slow page');
  const view = await archive.api<StoredView>('POST', '/views', { title: 'Slow view' });
  const requests = trackRequests(page.context());
  await archive.open(page, `/webpages/${id}`);
  await expect(page.getByRole('heading', { name: 'Slow page', level: 1 })).toBeVisible();
  await expect(page.locator('.toasts')).toBeAttached();
  await expect(progress(page)).toHaveCount(0);
  // Nothing in flight before the click: a fetch still running would have started the second.
  await expect.poll(() => requests.open(), { timeout: 30_000 }).toEqual([]);

  // A change the server answers only once the progress bar shows (held, not timed: however slow
  // the machine, the answer comes after the bar).
  const likeAnswer = gate();
  await page.route(`**/public/api/v1/webpages/${id}`, async (route) => {
    if (route.request().method() === 'PATCH') await likeAnswer.opened;
    await route.fallback();
  });
  const started = Date.now();
  await page.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(progress(page)).toBeVisible();
  // Not at once: only once a second has passed.
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  likeAnswer.open();
  await expect(done(page, 'Liked “Slow page”')).toBeVisible();
  await expect(progress(page)).toHaveCount(0);
  expect((await stored(archive, id)).liked).toBe(true);

  // A view the server answers only once the progress bar shows, opened from the sidebar.
  const viewAnswer = gate();
  await page.route(
    (url) => url.pathname.includes(`/public/api/v1/views/${view.id}`),
    async (route) => {
      await viewAnswer.opened;
      await route.fallback();
    },
  );
  await page
    .getByRole('list', { name: 'Saved views' })
    .getByRole('link', { name: 'Slow view' })
    .click();
  await expect(progress(page)).toBeVisible();
  viewAnswer.open();
  await expect(page.getByRole('heading', { name: 'Slow view', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Webpages of Slow view' })).toBeVisible();
  await expect(progress(page)).toHaveCount(0);
});
