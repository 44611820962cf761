// The file reaches the preview as bytes from Folio's server (`Accept`, a Folio extension: for an
// MHTML page, the archive with its parts in binary, its large ones as links) and as HamsterBase's
// base64 envelope from a server that ignores the header: the preview and "Download original" read
// either, the download is the original byte for byte, and the app's main thread reads neither.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { makeMhtml, makePng } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { PREVIEW, recordFileAnswers } from './support/preview.ts';

const TITLE = 'Bytes or base64';

function page_(origin: string) {
  return makeMhtml({
    html: `<html><head><title>${TITLE}</title></head><body><h1>${TITLE}</h1><img src="photo.png" alt="Photo"></body></html>`,
    url: `${origin}/article`,
    resources: [{ url: `${origin}/photo.png`, contentType: 'image/png', body: makePng(40, 30) }],
  });
}

/**
 * Opens the page from the list, checks the preview and the download; returns the content type of
 * each answer the app had for the file (the preview's, then the download's).
 */
async function previewAndDownload(page: Page, archive: Archive, file: Uint8Array, id: string) {
  const types = recordFileAnswers(page.context(), id);
  await archive.open(page, '/');
  await page.getByRole('link', { name: TITLE, exact: true }).click();
  const frame = page.frameLocator(PREVIEW);
  await expect(frame.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect
    .poll(() =>
      frame
        .getByRole('img', { name: 'Photo' })
        .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
    )
    .toBe(40);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download original' }).click();
  const bytes = await readFile(await (await download).path());
  expect(bytes.length).toBe(file.length);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(id);
  return types;
}

test("Folio's server sends linked MHTML to the preview and the original to the download", async ({
  page,
  archive,
}) => {
  const file = page_('https://bytes.example');
  const { id } = await archive.upload(file, 'mhtml');
  expect(await previewAndDownload(page, archive, file, id)).toEqual([
    'application/vnd.folio.linked-mhtml',
    'application/octet-stream',
  ]);
});

test('a server that ignores Accept sends the envelope, and the preview and download read it', async ({
  page,
  hamster,
}) => {
  const file = page_('https://envelope.example');
  const { id } = await hamster.upload(file, 'mhtml');
  // The envelope is the original: the download saves the preview's copy, asked for once.
  const types = await previewAndDownload(page, hamster, file, id);
  expect(types).toHaveLength(1);
  expect(types[0]).toMatch(/^application\/json/);
});
