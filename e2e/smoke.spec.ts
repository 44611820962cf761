import { readdirSync, readFileSync } from 'node:fs';
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

test('the test browser runs the test’s page and no pages of its own interface', async ({
  page,
  archive,
  browser,
}) => {
  // The full browser builds omnibox popups for each window unless told not to
  // (test/support/chromium.ts): ~1 s of CPU per test in processes of their own. The journeys run
  // in the headless shell where it is installed, which has no such pages; the switches still
  // hold where they run in the full browser.
  await archive.open(page, '/');
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const urls = targetInfos.map((target) => `${target.type} ${target.url}`);
    expect(urls.filter((url) => url.includes('chrome://'))).toEqual([]);
    expect(urls).toContain(`page ${page.url()}`);
  } finally {
    await cdp.detach();
  }
});

test('the test browser still turns off every feature Playwright turns off', async ({ browser }) => {
  expect(browser.isConnected()).toBe(true);
  // Chromium reads only the last --disable-features: ours must repeat Playwright's own.
  const lists = browserCommandLines()
    .flatMap((args) => args.filter((arg) => arg.startsWith('--disable-features=')))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
  expect(lists.length).toBeGreaterThanOrEqual(2);
  const applied = lists[lists.length - 1] ?? [];
  for (const list of lists) expect(applied).toEqual(expect.arrayContaining(list));
  expect(applied).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
});

/** The command lines of the browsers this worker started (its child processes that are Chromium's). */
function browserCommandLines(): string[][] {
  const lines: string[][] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.some((arg) => arg.startsWith('--remote-debugging-pipe'))) lines.push(args);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return lines;
}
