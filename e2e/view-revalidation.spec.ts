// Opening a view again asks the server whether its answer changed (the browser's own cache sends
// If-None-Match with the answer's ETag; the server answers 304 while nothing changed, see
// server/test/view-etags.test.ts): the same rows without reading the view again, and the new
// pages as soon as something changed.
import type { Response } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expect, test } from './support/fixtures.ts';

interface Exchange {
  sent: string | undefined;
  received: string | undefined;
}

test('a view opened again is revalidated with its ETag until the archive changes', async ({
  page,
  archive,
}) => {
  await archive.upload(makeHtml({ title: 'First kept page', body: '<p>one</p>' }), 'html');
  const view = await archive.api<{ id: string }>('POST', '/views', { title: 'Everything' });
  const exchanges: Exchange[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response: Response) => {
    if (!new URL(response.url()).pathname.endsWith(`/views/${view.id}/webpages`)) return;
    pending.push(
      (async () => {
        const request = await response.request().allHeaders();
        const headers = await response.allHeaders();
        exchanges.push({ sent: request['if-none-match'], received: headers.etag });
      })(),
    );
  });
  const settled = async () => {
    await Promise.all(pending);
    return exchanges;
  };

  await archive.open(page, `/views/${view.id}`);
  await expect(page.getByRole('link', { name: 'First kept page' })).toBeVisible();
  await expect.poll(settled).toHaveLength(1);
  const [first] = exchanges;
  expect(first?.sent).toBeUndefined();
  expect(first?.received).toMatch(/^"[\w-]+"$/);

  await page.reload();
  await expect(page.getByRole('link', { name: 'First kept page' })).toBeVisible();
  await expect.poll(settled).toHaveLength(2);
  expect(exchanges[1]).toEqual({ sent: first?.received, received: first?.received });

  await archive.upload(makeHtml({ title: 'Second page, added later', body: '<p>two</p>' }), 'html');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Second page, added later' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'First kept page' })).toBeVisible();
  await expect.poll(settled).toHaveLength(3);
  expect(exchanges[2]?.sent).toBe(first?.received);
  expect(exchanges[2]?.received).not.toBe(first?.received);
});
