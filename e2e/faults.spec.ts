// The app when things go wrong: the server goes away and comes back on the same address, the
// token is revoked, the server is slow. Real server processes, a real browser, no mocked network.
import { expect, test, type Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import {
  startRestartableServer,
  startSlowProxy,
  type RestartableServer,
  type SlowProxy,
} from './support/restartable-server.ts';

let server: RestartableServer;

test.beforeEach(async () => {
  server = await startRestartableServer();
});

test.afterEach(async () => {
  await server.dispose();
});

async function api<T>(method: string, path: string, body?: unknown, token = server.token) {
  const response = await fetch(`${server.url}/public/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success?: boolean; data?: T; message?: string };
  if (!response.ok || json.success !== true) {
    throw new Error(`${method} ${path}: ${response.status} ${json.message ?? ''}`);
  }
  return json.data as T;
}

async function seed(titles: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    const content = makeHtml({ title, body: `<p>${title}</p>` }).toString('base64');
    ids.push((await api<{ id: string }>('POST', '/webpages', { content, ext: 'html' })).id);
  }
  return ids;
}

async function open(page: Page, origin: string, path = '/', token = server.token) {
  await page.goto(`${origin}${path}#token=${encodeURIComponent(token)}`);
}

/**
 * A mark on the window: still there means the page was not reloaded. Taken once the app is idle
 * (the parts loaded after the first paint are in), so that a server stopped next fails the
 * requests the test is about.
 */
async function markWindow(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    (window as unknown as { folioMark?: string }).folioMark = 'no reload';
  });
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { folioMark?: string }).folioMark)).toBe(
    'no reload',
  );
}

const rows = (page: Page) => page.getByRole('list', { name: 'Webpages' });

test('server down: a clear offline state with Retry; back up: Retry recovers without a reload', async ({
  page,
}) => {
  const titles = ['Offline alpha', 'Offline beta', 'Offline gamma'];
  await seed(titles);
  await open(page, server.url);
  for (const title of titles)
    await expect(rows(page).getByRole('link', { name: title })).toBeVisible();
  await markWindow(page);

  await server.stop();
  // A list the app has not loaded yet: it has to ask the server, which is gone.
  await page.getByRole('combobox', { name: 'Sort', exact: true }).selectOption('title_desc');
  const offline = page.getByRole('alert').filter({ hasText: 'Server unreachable' });
  await expect(offline).toBeVisible({ timeout: 20_000 });
  const retry = offline.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await expect(offline.getByRole('link', { name: 'Open settings' })).toBeVisible();

  // Retrying while it is still down: the Retry goes away while it tries, then the same clear
  // state comes back (waiting for it, so that no try is still running when the server is back).
  await retry.click();
  await expect(retry).toBeHidden();
  await expect(retry).toBeVisible({ timeout: 20_000 });
  await expect(offline).toBeVisible();

  await server.start();
  await offline.getByRole('button', { name: 'Retry' }).click();
  await expect(offline).toHaveCount(0, { timeout: 20_000 });
  const shown = rows(page).locator('.webpage-row__title');
  await expect(shown).toHaveText([...titles].sort().reverse());
  await expect(page).toHaveURL(/sort=title_desc/);
  await expectNoReload(page);
});

test('an edit that fails while the server is down keeps its text, and saves once it is back', async ({
  page,
}) => {
  const [id] = await seed(['Title before the outage']);
  await open(page, server.url, `/webpages/${id}`);
  await expect(page.getByRole('heading', { name: 'Title before the outage' })).toBeVisible();
  await markWindow(page);

  await server.stop();
  await page.getByRole('button', { name: 'Edit title' }).click();
  const field = page.getByRole('textbox', { name: 'Title' });
  const typed = 'Typed while the archive was away — keep me';
  await field.fill(typed);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /Could not save the title/ }),
  ).toContainText('Server unreachable');
  await expect(field).toHaveValue(typed);
  await expect(field).toBeEditable();

  await server.start();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: typed })).toBeVisible();
  await expect(field).toHaveCount(0);
  expect((await api<{ title: string }>('GET', `/webpages/${id}`)).title).toBe(typed);
  await expectNoReload(page);
});

test('a revoked token: the app asks for the token again, and works once it is given', async ({
  page,
}) => {
  await seed(['Behind a token']);
  const cliToken = (await server.tokenCli('create', '--name', 'browser')).trim();
  await open(page, server.url, '/', cliToken);
  await expect(rows(page).getByRole('link', { name: 'Behind a token' })).toBeVisible();

  await server.tokenCli('revoke', '1');
  // Any request now is refused: ask for another list.
  await page.getByRole('combobox', { name: 'Liked', exact: true }).selectOption('yes');
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'The archive refused the access token.' });
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await banner.getByRole('link', { name: 'Enter the token in Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  await page.getByLabel('Token', { exact: true }).fill(server.token);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('link', { name: 'Library' }).first().click();
  await expect(rows(page).getByRole('link', { name: 'Behind a token' })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('a server restarted with another FOLIO_TOKEN: the app asks for the token again', async ({
  page,
}) => {
  const [id] = await seed(['Token rotated']);
  await open(page, server.url, `/webpages/${id}`);
  await expect(page.getByRole('heading', { name: 'Token rotated' })).toBeVisible();
  const oldToken = server.token;
  await server.stop();
  await server.start({ token: `${oldToken}-rotated` });

  await page.getByRole('button', { name: 'Like', exact: true }).click();
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'The archive refused the access token.' });
  await expect(banner).toBeVisible({ timeout: 15_000 });
  // The optimistic like is taken back: the server did not store it.
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  expect((await api<{ liked: boolean }>('GET', `/webpages/${id}`)).liked).toBe(false);
});

test.describe('a slow server', () => {
  let proxy: SlowProxy;

  test.beforeEach(async () => {
    proxy = await startSlowProxy(server.url, 0);
  });

  test.afterEach(async () => {
    proxy.release();
    await proxy.close();
  });

  const patches = (id: string) =>
    proxy.requests.filter((request) => request === `PATCH /public/api/v1/webpages/${id}`);

  test('shows loading states, and double clicks send each change once', async ({ page }) => {
    const [id] = await seed(['Slow page']);
    // Every answer waits until the test releases it: the loading states last as long as needed.
    proxy.hold();
    await open(page, proxy.url);
    // The list is loading: placeholders, not an empty library.
    await expect(
      page.locator('[role="status"][aria-busy="true"]').filter({ hasText: 'Loading webpages…' }),
    ).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
    proxy.release();
    await expect(rows(page).getByRole('link', { name: 'Slow page' })).toBeVisible();

    await rows(page).getByRole('link', { name: 'Slow page' }).click();
    await expect(page.getByRole('heading', { name: 'Slow page' })).toBeVisible();

    // Like, double-clicked while the server's answer waits: one request; the button shows the
    // change at once.
    proxy.hold();
    await page.getByRole('button', { name: 'Like', exact: true }).dblclick();
    await expect(page.getByRole('button', { name: 'Unlike', exact: true })).toBeVisible();
    await expect.poll(() => patches(id!).length).toBe(1);
    // Both clicks were handled before the answer came: a second request would be on its way now.
    proxy.release();
    await expect
      .poll(async () => (await api<{ liked: boolean }>('GET', `/webpages/${id}`)).liked)
      .toBe(true);
    await expect.poll(() => proxy.pending).toBe(0);
    expect(patches(id!)).toHaveLength(1);

    // Save, double-clicked: one request; the form says it is saving until the answer comes.
    await page.getByRole('button', { name: 'Edit title' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Slow page, renamed');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    proxy.hold();
    await save.dblclick();
    await expect(save).toBeDisabled();
    await expect(save).toHaveAttribute('aria-busy', 'true');
    await expect.poll(() => patches(id!).length).toBe(2);
    proxy.release();
    await expect(page.getByRole('heading', { name: 'Slow page, renamed' })).toBeVisible();
    await expect.poll(() => proxy.pending).toBe(0);
    expect(patches(id!)).toHaveLength(2);
    expect((await api<{ title: string }>('GET', `/webpages/${id}`)).title).toBe(
      'Slow page, renamed',
    );
  });
});
