import { makeHtml } from '../test/support/archives.ts';
import { expect, test } from './support/fixtures.ts';

test('opens with the token from the address, shows the empty library, then an uploaded page', async ({
  page,
  archive,
}) => {
  await archive.open(page, '/');

  // The token is taken from the fragment and removed from the address bar.
  await expect(page).toHaveURL(`${archive.url}/`);
  await expect(page.getByText(/your archive is empty/i)).toBeVisible();
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).toContain(archive.token);

  const title = `Smoke page ${Date.now()}`;
  await archive.upload(
    makeHtml({ title, description: 'A page uploaded through the API' }),
    'html',
    {
      link: 'https://smoke.example.org/article',
    },
  );

  await page.reload();
  const row = page.getByRole('link', { name: title });
  await expect(row).toBeVisible();
  await expect(page.getByText('smoke.example.org').first()).toBeVisible();
  await expect(page.getByText(/your archive is empty/i)).toHaveCount(0);
});

test('an unknown route shows the not-found page inside the app', async ({ page, archive }) => {
  await archive.open(page, '/no/such/place');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  await expect(page.getByRole('link', { name: /library/i }).first()).toBeVisible();
});
