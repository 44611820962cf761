// Importing a folder or a .zip of saved pages on the upload page (a summary with reasons, resumed
// after a reload), and a bookmarks file imported as the list "To save".
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { buildZip, SYMLINK_MODE } from '../shared/formats/zip-test-support.ts';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';

const CHROMIUM_MHTML = readFileSync(
  new URL('../test/fixtures/chromium-sample.mhtml', import.meta.url),
);

function savedPages(): Record<string, Uint8Array> {
  return {
    'one.html': makeHtml({ title: 'Imported one' }),
    'news/two.mhtml': makeMhtml({
      html: '<title>Imported two</title><p>two</p>',
      url: 'https://news.example/2',
    }),
    'news/deep/three.webarchive': makeWebarchive({
      html: '<title>Imported three</title><p>three</p>',
      url: 'https://news.example/3',
    }),
    'news/deep/cut.mhtml': CHROMIUM_MHTML.subarray(0, 700),
    'notes.txt': strToU8('not a page'),
    'news/picture.png': makePng(2, 2),
  };
}

const titles = async (archive: Archive) =>
  (await archive.api<{ webpages: { title: string }[] }>('GET', '/webpages?per_page=100')).webpages
    .map((page) => page.title)
    .sort();

const importPanel = (page: Page) => page.getByRole('region', { name: /^Import of/ });

/** Drops files on the upload page's drop zone, as a DataTransfer built in the page. */
async function dropFiles(page: Page, files: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const payload = files.map((file) => ({ name: file.name, data: Array.from(file.bytes) }));
  const zone = page.getByRole('region', { name: 'Drop saved webpages here' });
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([new Uint8Array(file.data)], file.name));
    return data;
  }, payload);
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

test('a folder chosen with "Choose folder": pages added, others skipped, a cut MHTML refused; again after a reload, nothing is sent', async ({
  page,
  archive,
}) => {
  const scratch = mkdtempSync(join(tmpdir(), 'folio-e2e-import-'));
  try {
    const root = join(scratch, 'saved-pages');
    for (const [path, bytes] of Object.entries(savedPages())) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), bytes);
    }
    await archive.open(page, '/upload');
    await page.getByLabel('Folder to import').setInputFiles(root);
    const panel = importPanel(page);
    await expect(panel.getByRole('status')).toHaveText(
      'Import finished: 3 added, 0 already there, 1 refused, 2 skipped',
    );
    await expect(panel).toContainText('4 of 4 saved pages');
    await panel.getByText('Refused (1)').click();
    await expect(panel.getByRole('listitem').filter({ hasText: 'cut.mhtml' })).toContainText(
      'This MHTML file is truncated',
    );
    await panel.getByText('Skipped (2)').click();
    await expect(panel.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText(
      'not a saved page',
    );
    expect(await titles(archive)).toEqual(['Imported one', 'Imported three', 'Imported two']);

    await page.reload();
    await page.getByLabel('Folder to import').setInputFiles(root);
    await expect(importPanel(page).getByRole('status')).toHaveText(
      'Import finished: 0 added, 3 already there, 1 refused, 2 skipped',
    );
    await expect(importPanel(page)).toContainText(
      '3 files were imported earlier from this browser and not sent again.',
    );
    expect(await titles(archive)).toHaveLength(3);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('a dropped .zip: pages added, a ../ entry and a symlink refused, others skipped; dropped again, already there', async ({
  page,
  archive,
}) => {
  const zip = zipSync({ ...savedPages(), 'folder/': new Uint8Array() });
  await archive.open(page, '/upload');
  await dropFiles(page, [{ name: 'saved-pages.zip', bytes: zip }]);
  const panel = importPanel(page);
  await expect(panel.getByRole('heading')).toHaveText('Import of “saved-pages.zip”');
  await expect(panel.getByRole('status')).toHaveText(
    'Import finished: 3 added, 0 already there, 1 refused, 2 skipped',
  );
  expect(await titles(archive)).toEqual(['Imported one', 'Imported three', 'Imported two']);

  const hostile = buildZip([
    { name: '../escape.html', data: makeHtml({ title: 'Escape' }) },
    { name: 'link.html', data: strToU8('/etc/passwd'), method: 0, unixMode: SYMLINK_MODE },
    { name: 'one.html', data: savedPages()['one.html'] },
  ]);
  await dropFiles(page, [{ name: 'hostile.zip', bytes: hostile }]);
  await expect(panel.getByRole('status')).toHaveText(
    'Import finished: 0 added, 1 already there, 2 refused, 0 skipped',
  );
  await panel.getByText('Refused (2)').click();
  await expect(panel).toContainText(
    "../escape.html: refused: its name leaves the archive's folder",
  );
  await expect(panel).toContainText('link.html: refused: it is a symbolic link');

  await dropFiles(page, [{ name: 'broken.zip', bytes: zip.subarray(0, zip.length - 30) }]);
  await expect(panel.getByRole('alert')).toContainText(
    'broken.zip: this is not a zip file, or it is damaged (no end of central directory). Nothing was sent.',
  );
  expect(await titles(archive)).toHaveLength(3);
});

const BOOKMARKS = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1690000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://read.example/essay" ADD_DATE="1695000000" TAGS="long,essays">An essay</A>
        <DT><A HREF="javascript:void(0)">bookmarklet</A>
    </DL><p>
    <DT><A HREF="https://read.example/other" ADD_DATE="1696000000">Another</A>
</DL><p>
`;

test('a bookmarks file becomes the list "To save" with folders and tags as labels; a saved link is marked and removed', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/upload');
  const section = page.getByRole('region', { name: 'To save' });
  await expect(section).toContainText('Folio cannot fetch live pages');
  await section.getByLabel('Bookmarks file to import').setInputFiles({
    name: 'bookmarks_26_11_2026.html',
    mimeType: 'text/html',
    buffer: Buffer.from(BOOKMARKS),
  });
  await expect(section.getByRole('status')).toHaveText(
    'bookmarks_26_11_2026.html: 2 links added to the list to save, 1 links that are not http(s) were skipped.',
  );
  const list = section.getByRole('list', { name: 'Links to save' });
  const essay = list.getByRole('listitem').filter({ hasText: 'An essay' });
  await expect(essay).toContainText('Bookmarks bar');
  await expect(essay).toContainText('long');
  await expect(essay).toContainText('essays');
  const link = essay.getByRole('link', { name: 'An essay' });
  await expect(link).toHaveAttribute('href', 'https://read.example/essay');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');

  await archive.upload(makeHtml({ title: 'The essay, saved' }), 'html', {
    link: 'https://read.example/essay',
  });
  await page.reload();
  await expect(essay).toContainText('already saved');
  await essay.getByRole('button', { name: /^Saved — remove/ }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Another');
});

test('against a server without the extension, bookmarks import says it needs Folio and writes nothing', async ({
  page,
  hamster,
}) => {
  await hamster.open(page, '/upload');
  const section = page.getByRole('region', { name: 'To save' });
  await expect(section).toContainText("Importing a bookmarks file needs Folio's server");
  await expect(section.getByLabel('Bookmarks file to import')).toHaveCount(0);
});

test('more files at once than the queue shows rows for are imported with a summary instead', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/upload');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  const page0 = makeHtml({ title: 'Many copies' });
  await (
    await chooser
  ).setFiles(
    Array.from({ length: 201 }, (_, i) => ({
      name: `copy-${i}.html`,
      mimeType: 'text/html',
      buffer: page0,
    })),
  );
  await expect(importPanel(page).getByRole('status')).toHaveText(
    'Import finished: 1 added, 200 already there, 0 refused, 0 skipped',
    { timeout: 50_000 },
  );
  await expect(page.getByRole('region', { name: 'Files' })).toHaveCount(0);
  expect(await titles(archive)).toEqual(['Many copies']);
});
