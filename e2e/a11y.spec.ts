// axe-core on every route, in both themes: no serious or critical violation. The archived page
// inside the preview frame is third-party content and is left out.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expect, test } from './support/fixtures.ts';

async function expectNoSeriousViolations(p: Page, route: string) {
  const { violations } = await new AxeBuilder({ page: p })
    .exclude('iframe[title^="Preview of"]')
    .analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  expect(serious, `axe on ${route}`).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`every route passes axe in the ${theme} theme`, async ({ page: p, archive }) => {
    test.setTimeout(120_000);
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
    await p.emulateMedia({ colorScheme: theme });
    await archive.open(p, '/settings');
    await p.getByRole('radio', { name: theme === 'dark' ? 'Dark' : 'Light' }).check();

    const routes: { path: string; ready: (p: Page) => Promise<void> }[] = [
      { path: '/', ready: (q) => expect(q.getByRole('list', { name: 'Webpages' })).toBeVisible() },
      {
        path: `/webpages/${id}`,
        ready: (q) => expect(q.locator('iframe[title^="Preview of"]')).toBeVisible(),
      },
      {
        path: `/webpages/${id}/preview`,
        ready: (q) => expect(q.locator('iframe[title^="Preview of"]')).toBeVisible(),
      },
      { path: '/views', ready: (q) => expect(q.getByText('All pages').first()).toBeVisible() },
      { path: '/views/new', ready: (q) => expect(q.locator('main h1')).toBeVisible() },
      { path: `/views/${view.id}`, ready: (q) => expect(q.locator('main h1')).toBeVisible() },
      { path: '/upload', ready: (q) => expect(q.locator('main h1')).toBeVisible() },
      {
        path: '/settings',
        ready: (q) => expect(q.getByText(/^Folio \d/)).toBeVisible(),
      },
      {
        path: '/search?q=quokka',
        ready: (q) => expect(q.getByRole('list', { name: 'Search results' })).toBeVisible(),
      },
      {
        path: '/search?q=zq',
        ready: (q) => expect(q.getByText('No webpages match')).toBeVisible(),
      },
      { path: '/no/such/page', ready: (q) => expect(q.locator('h1').first()).toBeVisible() },
    ];
    for (const route of routes) {
      await p.goto(`${archive.url}${route.path}`);
      await route.ready(p);
      await p.waitForLoadState('networkidle');
      await expect(p.locator('html')).toHaveAttribute('data-theme', theme);
      await expectNoSeriousViolations(p, route.path);
    }

    // A dialog: the keyboard shortcuts.
    await p.goto(`${archive.url}/`);
    await expect(p.getByRole('list', { name: 'Webpages' })).toBeVisible();
    await p.waitForLoadState('networkidle');
    await p.keyboard.press('?');
    const dialog = p.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await expectNoSeriousViolations(p, 'shortcuts dialog');
  });
}
