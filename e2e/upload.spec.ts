// Uploading through the app: the three formats (the MHTML captured by Chromium itself), a file whose
// name lies about its format, a file already in the archive, and files that are no webpage at all.
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import {
  makeHtml,
  makeMhtml,
  makePng,
  makeWebarchive,
  withMissingStartPart,
} from '../test/support/archives.ts';
import { captureMhtml, startSourceSite } from './support/capture.ts';
import { expect, test, type Archive } from './support/fixtures.ts';

interface ListedWebpage {
  id: string;
  title: string;
  ext: string;
  link: string | null;
}

const listAll = async (archive: Archive) =>
  (await archive.api<{ webpages: ListedWebpage[] }>('GET', '/webpages?per_page=100')).webpages;

interface FileSpec {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** The queue's row of a file (a list item named by the file name). */
const uploadRow = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: 'Files' }).getByRole('listitem', { name, exact: true });

/** Picks files in the page's file chooser, as a user does after clicking "Choose files". */
async function chooseFiles(page: Page, files: FileSpec[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles(files);
}

/** The library row whose title link is `title`. */
const libraryRow = (page: Page, title: string): Locator =>
  page
    .getByRole('list', { name: 'Webpages' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });

test('uploads an HTML, a Chromium MHTML and a webarchive, then lists each with title, host and format', async ({
  page,
  browser,
  archive,
}) => {
  const png = makePng(24, 16, [10, 200, 30]);
  const site = await startSourceSite({
    '/news/today.html': {
      contentType: 'text/html; charset=utf-8',
      body:
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Captured news of the day</title>' +
        '<link rel="stylesheet" href="news.css"></head><body><h1>Today</h1>' +
        '<p>Chromium saved this page.</p><img src="chart.png" alt="chart"></body></html>',
    },
    '/news/news.css': { contentType: 'text/css', body: 'h1 { color: rgb(90, 0, 0); }' },
    '/news/chart.png': { contentType: 'image/png', body: png },
  });
  const captured = await captureMhtml(browser, `${site.origin}/news/today.html`);
  await site.close();
  // The capture really holds the page's resources (Chromium's own multipart output).
  expect(captured.toString('latin1')).toContain(`Content-Location: ${site.origin}/news/chart.png`);

  const files = [
    {
      name: 'singlefile-essay.html',
      mimeType: 'text/html',
      buffer: makeHtml({
        title: 'An essay saved with SingleFile',
        singleFileUrl: 'https://essays.example.org/2026/on-archives',
        savedDate: new Date('2026-02-03T04:05:06Z'),
        body: `<h1>On archives</h1><img src="data:image/png;base64,${png.toString('base64')}">`,
      }),
    },
    { name: 'news-today.mhtml', mimeType: 'multipart/related', buffer: captured },
    {
      name: 'Recipe.webarchive',
      mimeType: 'application/x-webarchive',
      buffer: makeWebarchive({
        html: '<!DOCTYPE html><html><head><title>A recipe from Safari</title></head><body><h1>Soup</h1><img src="soup.png"></body></html>',
        url: 'https://recipes.example.net/soup',
        subresources: [
          { url: 'https://recipes.example.net/soup.png', mimeType: 'image/png', data: png },
        ],
      }),
    },
  ];
  const expected = [
    { title: 'An essay saved with SingleFile', host: 'essays.example.org', ext: 'html' },
    { title: 'Captured news of the day', host: site.host, ext: 'mhtml' },
    { title: 'A recipe from Safari', host: 'recipes.example.net', ext: 'webarchive' },
  ];

  await archive.open(page, '/upload');
  await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
  await chooseFiles(page, files);

  for (const file of files) {
    const row = uploadRow(page, file.name);
    await expect(row.getByText('Added', { exact: true })).toBeVisible();
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(row.getByRole('link', { name: 'Open' })).toBeVisible();
  }
  await expect(page.getByText('3 files: 3 added')).toBeVisible();

  // What the server stored: one page per file, with the format it was sent as.
  const stored = await listAll(archive);
  expect(
    stored.map(({ title, ext }) => ({ title, ext })).sort((a, b) => a.ext.localeCompare(b.ext)),
  ).toEqual(expected.map(({ title, ext }) => ({ title, ext })));
  expect(stored.find((webpage) => webpage.ext === 'mhtml')?.link).toBe(
    `${site.origin}/news/today.html`,
  );

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Library' })
    .click();
  for (const { title, host, ext } of expected) {
    const row = libraryRow(page, title);
    await expect(row).toHaveCount(1);
    await expect(row.getByText(host, { exact: true })).toBeVisible();
    await expect(row.getByText(ext, { exact: true })).toBeVisible();
  }

  // Each row's "Open" leads to the page it added.
  await page.goBack();
  await uploadRow(page, 'Recipe.webarchive').getByRole('link', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { name: 'A recipe from Safari', level: 1 })).toBeVisible();
});

test('an MHTML named .html is explained before anything is sent, and can be sent as MHTML', async ({
  page,
  archive,
}) => {
  const mhtml = makeMhtml({
    html: '<!DOCTYPE html><html><head><title>Misnamed capture</title></head><body><p>Hi</p></body></html>',
    url: 'https://misnamed.example.com/page',
  });
  await archive.open(page, '/upload');
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'misnamed.html',
    mimeType: 'text/html',
    buffer: mhtml,
  });

  const row = uploadRow(page, 'misnamed.html');
  await expect(row.getByText('This file looks like MHTML but is named .html')).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'blocked');
  await expect(page.getByText('1 file: 1 need attention')).toBeVisible();
  // Nothing reached the server while the user decides.
  expect(await listAll(archive)).toEqual([]);

  // While it waits, a title and a link can be given; a link that is not a URL is explained.
  await row.getByText('Title and link').click();
  await row.getByRole('textbox', { name: 'Title' }).fill('Renamed before sending');
  const link = row.getByRole('textbox', { name: 'Link' });
  await link.fill('misnamed.example.com/elsewhere');
  await expect(
    row.getByText('Enter an absolute http(s) URL, or leave the link empty'),
  ).toBeVisible();
  await expect(link).toHaveAttribute('aria-invalid', 'true');
  await link.fill('https://elsewhere.example.com/page');
  await expect(link).toHaveAttribute('aria-invalid', 'false');

  await row.getByRole('button', { name: 'Upload as MHTML' }).click();
  await expect(row.getByText('Added', { exact: true })).toBeVisible();
  const stored = await listAll(archive);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({
    title: 'Renamed before sending',
    ext: 'mhtml',
    link: 'https://elsewhere.example.com/page',
  });
});

test('uploading a file that is already in the archive says so, and adds nothing', async ({
  page,
  archive,
}) => {
  const earlier = makeHtml({ title: 'Saved last week', singleFileUrl: 'https://old.example.org/' });
  const { id: earlierId } = await archive.upload(earlier, 'html');
  const again = makeHtml({ title: 'Saved twice today' });

  await archive.open(page, '/upload');
  // A page uploaded before this visit: the server answers with its existing record. (The app tells
  // by its first-add time, so let at least a second and a half pass since that upload.)
  const { firstAddTime } = await archive.api<{ firstAddTime: number }>(
    'GET',
    `/webpages/${earlierId}`,
  );
  await expect.poll(() => Date.now() - firstAddTime).toBeGreaterThan(1_500);
  await chooseFiles(page, [{ name: 'last-week.html', mimeType: 'text/html', buffer: earlier }]);
  await expect(
    uploadRow(page, 'last-week.html').getByText('Already in the archive', { exact: true }),
  ).toBeVisible();

  // The same file twice in one visit: added, then already there.
  await chooseFiles(page, [{ name: 'today.html', mimeType: 'text/html', buffer: again }]);
  await expect(uploadRow(page, 'today.html').getByText('Added', { exact: true })).toBeVisible();
  await chooseFiles(page, [{ name: 'today-copy.html', mimeType: 'text/html', buffer: again }]);
  await expect(
    uploadRow(page, 'today-copy.html').getByText('Already in the archive', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('3 files: 1 added, 2 already in the archive')).toBeVisible();

  const stored = await listAll(archive);
  expect(stored.map((webpage) => webpage.title).sort()).toEqual([
    'Saved last week',
    'Saved twice today',
  ]);
});

test('files that are not webpages fail with a clear reason and leave the archive empty', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/upload');
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'noise.mhtml', mimeType: 'application/octet-stream', buffer: randomBytes(4096) },
    { name: 'notes.mhtml', mimeType: 'text/plain', buffer: Buffer.from('Just some notes.\n') },
  ]);

  // Caught before sending: the content does not look like MHTML at all.
  const noise = uploadRow(page, 'noise.mhtml');
  await expect(
    noise.getByText('This file does not look like MHTML: it contains binary data'),
  ).toBeVisible();
  const notes = uploadRow(page, 'notes.mhtml');
  await expect(
    notes.getByText('This file does not look like MHTML: no MIME multipart headers found'),
  ).toBeVisible();
  expect(await listAll(archive)).toEqual([]);

  // Sent anyway, the server cannot read it, and the row says why in the server's words.
  await noise.getByRole('button', { name: 'Upload anyway' }).click();
  await expect(
    noise.getByText('Could not be read as MHTML: mhtml: does not start with a MIME header', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(noise).toHaveAttribute('data-status', 'failed');

  // A Chrome MHTML cut short (an interrupted download): its end lacks the closing boundary, so the
  // page says so before sending, and offers nothing but removing it.
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/webpages')) {
      uploads.push(request.url());
    }
  });
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'cut.mhtml',
    mimeType: 'multipart/related',
    buffer: makeMhtml({ html: '<html><body><p>Cut</p></body></html>' }).subarray(0, 400),
  });
  const cut = uploadRow(page, 'cut.mhtml');
  await expect(
    cut.getByText('This MHTML file is truncated: its closing MIME boundary is missing'),
  ).toBeVisible();
  // A final state: the file waits for the user, and nothing was or will be sent.
  expect(uploads).toEqual([]);
  await expect(cut.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(cut.getByRole('button', { name: /^Upload/ })).toHaveCount(0);

  // Whole at its end but missing the part it declares as the page: only the server can tell, and
  // the row gives its reason.
  const declared = withMissingStartPart(
    makeMhtml({ html: '<html><body><p>Start</p></body></html>' }),
  );
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'startless.mhtml',
    mimeType: 'multipart/related',
    buffer: declared,
  });
  const startless = uploadRow(page, 'startless.mhtml');
  await expect(
    startless.getByText(
      'Could not be read as MHTML: the file is truncated: the start part it declares is missing',
      { exact: true },
    ),
  ).toBeVisible();
  await expect(startless.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByText('4 files: 2 need attention, 2 failed')).toBeVisible();

  expect(await listAll(archive)).toEqual([]);
});
