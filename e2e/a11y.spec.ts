// axe-core on every route, in both themes: no serious or critical violation. The archived page
// inside the preview frame is third-party content and is left out.
import type { Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { expect, test, type Archive } from './support/fixtures.ts';

type Route = { path: string; ready: (p: Page) => Promise<void> };

/** The archive every group is checked on: a labelled page and a view. */
async function seedArchive(archive: Archive): Promise<{ id: string; viewId: string }> {
  const { id } = await archive.upload(
    makeHtml({
      title: 'Quokka facts',
      body: '<p>Small marsupials of Rottnest island.</p>',
      singleFileUrl: 'https://animals.example/q',
    }),
    'html',
  );
  await archive.api('PATCH', `/webpages/${id}`, { labels: ['animals'] });
  const view = await archive.api<{ id: string }>('POST', '/views', { title: 'All pages' });
  return { id, viewId: view.id };
}

const preview = (q: Page) => expect(q.locator('iframe[title^="Preview of"]')).toBeVisible();
const heading = (q: Page) => expect(q.locator('main h1')).toBeVisible();
const library = (q: Page) => expect(q.getByRole('list', { name: 'Webpages' })).toBeVisible();

/** The routes, in groups small enough to stay well inside a test's time on a busy machine. */
const GROUPS: { name: string; routes: (ids: { id: string; viewId: string }) => Route[] }[] = [
  {
    name: 'the library and search',
    routes: () => [
      { path: '/', ready: library },
      {
        path: '/search?q=quokka',
        ready: (q) => expect(q.getByRole('list', { name: 'Search results' })).toBeVisible(),
      },
      {
        path: '/search?q=zq',
        ready: (q) => expect(q.getByText('No webpages match')).toBeVisible(),
      },
    ],
  },
  {
    name: 'a webpage’s detail and full window',
    routes: ({ id }) => [
      { path: `/webpages/${id}`, ready: preview },
      { path: `/webpages/${id}/preview`, ready: preview },
    ],
  },
  {
    name: 'views',
    routes: ({ viewId }) => [
      { path: '/views', ready: (q) => expect(q.getByText('All pages').first()).toBeVisible() },
      { path: '/views/new', ready: heading },
      { path: `/views/${viewId}`, ready: heading },
    ],
  },
  {
    name: 'upload, settings and not found',
    routes: () => [
      { path: '/upload', ready: heading },
      { path: '/settings', ready: (q) => expect(q.getByText(/^Folio \d/)).toBeVisible() },
      { path: '/no/such/page', ready: (q) => expect(q.locator('h1').first()).toBeVisible() },
    ],
  },
];

for (const theme of ['light', 'dark'] as const) {
  test.describe(`the ${theme} theme`, () => {
    for (const group of GROUPS) {
      test(`${group.name} pass axe`, async ({ page: p, archive }) => {
        const ids = await seedArchive(archive);
        await p.emulateMedia({ colorScheme: theme });
        await archive.open(p, '/settings');
        await p.getByRole('radio', { name: theme === 'dark' ? 'Dark' : 'Light' }).check();
        for (const route of group.routes(ids)) {
          await p.goto(`${archive.url}${route.path}`);
          await route.ready(p);
          await p.waitForLoadState('networkidle');
          await expect(p.locator('html')).toHaveAttribute('data-theme', theme);
          await expectNoSeriousViolations(p, route.path);
        }
      });
    }

    test('the keyboard shortcuts dialog passes axe', async ({ page: p, archive }) => {
      await seedArchive(archive);
      await p.emulateMedia({ colorScheme: theme });
      await archive.open(p, '/settings');
      await p.getByRole('radio', { name: theme === 'dark' ? 'Dark' : 'Light' }).check();
      await p.goto(`${archive.url}/`);
      await library(p);
      await p.waitForLoadState('networkidle');
      await expect(p.locator('html')).toHaveAttribute('data-theme', theme);
      await p.keyboard.press('?');
      const dialog = p.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
      await expectNoSeriousViolations(p, 'shortcuts dialog');
    });
  });
}
