import type { Page } from '@playwright/test';
import { gate } from './gate.ts';

export interface HeldDetails {
  /** Lets every held answer go (and the ones asked for later, until `hold()`). */
  release(): void;
  /** Holds the answers asked for from now on, until the next `release()`. */
  hold(): void;
}

/**
 * From now on, each webpage's details (`GET /webpages/<id>`) are held until the test releases
 * them: a slow server whose answers come exactly when the test has done what it does meanwhile,
 * however busy the machine.
 */
export async function holdWebpageDetails(page: Page): Promise<HeldDetails> {
  let current = gate();
  await page.route(/\/public\/api\/v1\/webpages\/[0-9a-f]{64}$/, async (route) => {
    await current.opened;
    await route.continue();
  });
  return {
    release: () => current.open(),
    hold: () => {
      current = gate();
    },
  };
}
