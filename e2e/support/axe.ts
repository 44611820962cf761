// axe-core on the app as it is: no serious or critical violation. The archived page inside a
// preview frame is third-party content and is left out.
//
// axe runs in the page's own document, once per check (`axe.run`, frames left out). The
// @axe-core/playwright wrapper ran it in each frame and merged the results in a new page of the
// browser context: a new window each time (~1 s of the browser's and a renderer's CPU), and a 1 s
// wait on the preview frame, whose sandbox runs no script.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, ContextObject, RunOptions } from 'axe-core';

type AxeRun = { run: (context: ContextObject, options: RunOptions) => Promise<AxeResults> };

const PREVIEW_FRAME = 'iframe[title^="Preview of"]';
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

type Serious = { id: string; help: string; targets: string[] };

/** The serious and critical violations axe finds in the page, `exclude` (selectors) left out. */
export async function seriousViolations(page: Page, exclude: string[] = []): Promise<Serious[]> {
  await page.evaluate(AXE_SOURCE);
  const json = await page.evaluate(async (selectors) => {
    const { axe } = window as unknown as { axe: AxeRun };
    const context = { exclude: selectors.map((selector) => [selector]) };
    const results = await axe.run(context, { iframes: false, resultTypes: ['violations'] });
    return JSON.stringify(results.violations);
  }, exclude);
  const violations = JSON.parse(json) as AxeResults['violations'];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
}

export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  expect(await seriousViolations(page, [PREVIEW_FRAME]), `axe: ${what}`).toEqual([]);
}
