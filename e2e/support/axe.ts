// axe-core on the app as it is: no serious or critical violation. The archived page inside a
// preview frame is third-party content and is left out.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const PREVIEW_FRAME = 'iframe[title^="Preview of"]';

export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).exclude(PREVIEW_FRAME).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  expect(serious, `axe: ${what}`).toEqual([]);
}
