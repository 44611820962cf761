// Steps of the view editor shared by the journeys: add a filter with the builder.
import { expect, type Locator, type Page } from '@playwright/test';
import type { SeedPage } from './seed.ts';

/** Adds a filter of `kind` ("Host", "Labels", …), set up by `configure` in the builder. */
export async function addFilter(
  page: Page,
  kind: string,
  configure: (builder: Locator) => Promise<void>,
): Promise<void> {
  await page.getByRole('button', { name: 'Add a filter' }).click();
  const builder = page.getByRole('group', { name: 'New filter' });
  await builder.getByLabel('Filter by').selectOption({ label: kind });
  await configure(builder);
  await builder.getByRole('button', { name: 'Add filter' }).click();
  await expect(builder).toHaveCount(0);
}

/** Host news.example.com or blog.example.org, label "research", unread (of `variedPages`). */
export async function addUnreadResearchFilters(page: Page): Promise<void> {
  await addFilter(page, 'Host', async (builder) => {
    const hosts = builder.getByRole('group', { name: 'Hosts' });
    await hosts.getByLabel('Search hosts').fill('example.');
    await hosts.getByRole('checkbox', { name: 'news.example.com' }).check();
    await hosts.getByRole('checkbox', { name: 'blog.example.org' }).check();
  });
  await addFilter(page, 'Labels', async (builder) => {
    await builder
      .getByRole('group', { name: 'Labels' })
      .getByRole('checkbox', { name: 'research' })
      .check();
  });
  await addFilter(page, 'Read status', async (builder) => {
    await builder.getByRole('radio', { name: 'Unread' }).check();
  });
}

/** The pages `addUnreadResearchFilters` selects, of those seeded. */
export function unreadResearch<T extends Pick<SeedPage, 'host' | 'labels' | 'read'>>(
  pages: readonly T[],
): T[] {
  return pages.filter(
    (p) =>
      (p.host === 'news.example.com' || p.host === 'blog.example.org') &&
      p.labels.includes('research') &&
      !p.read,
  );
}
