import type { Page } from '@playwright/test';

/** From now on, each webpage's details (`GET /webpages/<id>`) take `ms` longer to come. */
export async function slowWebpageDetails(page: Page, ms = 600): Promise<void> {
  await page.route(/\/public\/api\/v1\/webpages\/[0-9a-f]{64}$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}
