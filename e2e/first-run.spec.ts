// First run: the app opened without its token says that one is needed and where it is (a wrong
// token is still "refused"), and the `#token=…` address pasted into the open tab works at once.
import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { seed } from './support/seed.ts';

/** One plain page in the archive, to see whether the library shows it. */
const seedOne = (archive: Archive, title: string) =>
  seed(archive, [{ title, host: 'a.example', ext: 'html', liked: false, read: false, labels: [] }]);
const rows = (page: Page) => page.getByRole('list', { name: 'Webpages' });
const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'access token' });

test('without a token the app says that one is needed and where it is; a wrong one is refused', async ({
  page,
  archive,
}) => {
  await seedOne(archive, 'Behind the token');
  await page.goto(`${archive.url}/`);
  await expect(banner(page)).toHaveText(
    'Folio needs its access token: open the address that npm start printed (the line with ' +
      '#token=…), or enter the token from the file FOLIO_DATA_DIR/token (data/token by ' +
      'default). Enter the token in Settings',
  );
  await expect(page.getByText('A token is needed')).toBeVisible();
  await expect(page.getByText(/refused/)).toHaveCount(0);
  // The first screen a new user sees passes axe, in both colour schemes.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `the ${colorScheme} scheme`);
  }

  // A new tab with a wrong token: refused, as before.
  await page.goto('about:blank');
  await page.goto(`${archive.url}/#token=not-the-token`);
  await expect(banner(page)).toHaveText(
    'The archive refused the access token. Enter the token in Settings',
  );
  await expect(page.getByText('The server refused the token')).toBeVisible();
  await expect(page.getByText('Folio needs its access token')).toHaveCount(0);
});

test('the #token=… address pasted into the open tab works without a reload', async ({
  page,
  archive,
}) => {
  await seedOne(archive, 'Pasted token page');
  await page.goto(`${archive.url}/`);
  await expect(page.getByText('A token is needed')).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { folioMark?: string }).folioMark = 'same document';
  });

  // The same address with a fragment: the browser changes only the fragment (no new document).
  await page.goto(`${archive.url}/#token=${encodeURIComponent(archive.token)}`);
  await expect(rows(page).getByRole('link', { name: 'Pasted token page' })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByText('A token is needed')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { folioMark?: string }).folioMark)).toBe(
    'same document',
  );
  // The token left the address bar (and the history), and is kept for the next visit.
  expect(page.url()).toBe(`${archive.url}/`);
  await page.reload();
  await expect(rows(page).getByRole('link', { name: 'Pasted token page' })).toBeVisible();
});
