import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { makeHtml } from '../test/support/archives.ts';
import { expect, startArchive, test } from './support/fixtures.ts';
import { seed } from './support/seed.ts';

const PAGES = [
  {
    title: 'Exported alpha',
    host: 'a.example.com',
    ext: 'html',
    liked: true,
    read: false,
    labels: ['one'],
  },
  {
    title: 'Exported beta',
    host: 'b.example.com',
    ext: 'mhtml',
    liked: false,
    read: true,
    labels: [],
  },
  {
    title: 'Exported gamma',
    host: 'c.example.com',
    ext: 'webarchive',
    liked: false,
    read: false,
    labels: ['two'],
  },
] as const;

test('Export everything downloads a .zip with every original, folio-export.json and bookmarks.html', async ({
  page,
  archive,
}) => {
  const seeded = await seed(
    archive,
    PAGES.map((p) => ({ ...p, labels: [...p.labels] })),
  );
  await archive.open(page, '/settings');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export everything' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^folio-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = unzipSync(new Uint8Array(readFileSync((await file.path())!)));
  expect(Object.keys(entries).sort()).toEqual(
    [
      'bookmarks.html',
      'folio-export.json',
      ...seeded.map((stored) => `originals/${stored.id}.${stored.ext}`),
    ].sort(),
  );
  const json = JSON.parse(new TextDecoder().decode(entries['folio-export.json'])) as {
    webpages: { title: string; labels: string[] }[];
  };
  expect(json.webpages.map((stored) => stored.title).sort()).toEqual(
    PAGES.map((p) => p.title).sort(),
  );
});

test('Copy from another archive copies its pages, highlights and views into this one', async ({
  page,
  archive,
}) => {
  const source = await startArchive();
  try {
    const { id } = await source.upload(
      makeHtml({ title: 'Copied page', body: '<p>Some words to mark.</p>' }),
      'html',
      { link: 'https://copied.example.org/x' },
    );
    await source.api('PATCH', `/webpages/${id}`, { liked: true, labels: ['moved'] });
    await source.api('POST', `/webpages/${id}/highlights`, {
      text: 'words',
      textBefore: 'Some ',
      textAfter: ' to mark.',
      note: 'kept',
    });
    await source.api('POST', '/views', {
      title: 'Moved view',
      filters: [{ type: 0, key: 'liked', operator: true }],
    });

    await archive.open(page, '/settings');
    await page.getByLabel('Base URL of the other archive').fill(source.url);
    await page.getByLabel('Its token').fill(source.token);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /Done\./ })).toContainText(
      '1 / 1 pages: 1 copied, 0 already here, 0 failed; views: 1 copied',
    );

    const copied = await archive.api<{
      liked: boolean;
      labels: string[];
      highlights: { text: string; note?: string }[];
    }>('GET', `/webpages/${id}`);
    expect(copied.liked).toBe(true);
    expect(copied.labels).toEqual(['moved']);
    expect(copied.highlights.map((h) => [h.text, h.note])).toEqual([['words', 'kept']]);
    const views = await archive.api<{ title: string }[]>('GET', '/views');
    expect(views.map((view) => view.title)).toEqual(['Moved view']);

    // Again: nothing is duplicated.
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /Done\./ })).toContainText(
      '1 / 1 pages: 0 copied, 1 already here, 0 failed; views: 0 copied, 1 already here',
    );
    const again = await archive.api<{ highlights: unknown[] }>('GET', `/webpages/${id}`);
    expect(again.highlights).toHaveLength(1);
  } finally {
    await source.stop();
  }
});
