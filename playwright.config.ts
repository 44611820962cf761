import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, JOURNEY_CHROMIUM_PATH } from './test/support/chromium.ts';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Half as many workers again as cores: each journey waits on its browser, its server and
  // Playwright's polling part of the time. On 2 cores with the headless shell, 2 workers left 90 of
  // 780 core-seconds idle (392 s); 3 kept both cores busy (333 s). With the full browser, whose
  // contexts cost more CPU, the cores were busy with 2 (450 s; 464 s with 3).
  workers: Math.ceil(availableParallelism() * 1.5),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    // A failed test keeps its trace: each action with its log and timing (error-context.md has
    // the page's accessibility snapshot). DOM snapshots and the network log of every action cost
    // ~15 % of the suite's CPU: FOLIO_TRACE=full records them too, FOLIO_TRACE=off records nothing.
    trace:
      process.env.FOLIO_TRACE === 'off'
        ? 'off'
        : {
            mode: 'retain-on-failure',
            screenshots: false,
            snapshots: process.env.FOLIO_TRACE === 'full',
          },
    launchOptions: { executablePath: JOURNEY_CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
