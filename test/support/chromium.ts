// How the end-to-end tests and the bench run Chromium: Debian's (never a downloaded browser, see
// README), with the switches below.
import { existsSync } from 'node:fs';

/**
 * Chromium as a user runs it (Debian's `chromium`): the bench, whose figures are what a user's
 * browser does, and the extension's journey (the headless shell loads no extension).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser of the journeys: Debian's `chromium-headless-shell`, the same release's Blink and V8
 * without the browser's own interface, which Playwright also runs by default for headless tests.
 * The full browser builds and lays out a window's interface for every browser context, one per
 * test: the journeys took 690 CPU-s with the shell against 827 with the full browser. Where the
 * shell is not installed, the journeys run in `CHROMIUM_PATH`.
 */
export const JOURNEY_CHROMIUM_PATH = journeyChromium();

function journeyChromium(): string {
  const shell = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
  return existsSync(shell) ? shell : CHROMIUM_PATH;
}

/**
 * The features Playwright 1.64 turns off (its `--disable-features`, playwright-core's
 * chromiumSwitches.ts). Chromium reads only the last `--disable-features` of its command line, so
 * ours, which comes after Playwright's, must name them again (e2e/smoke.spec.ts checks it does).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'BlockOriginHeaderModificationOnRedirect',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'Translate',
  'AutoDeElevate',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export const CHROMIUM_ARGS = [
  // The machine has no network: keep Chromium from phoning home.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Headless Chromium still builds each window's browser interface, and its two omnibox popups
  // are web pages of their own (chrome://omnibox-popup.top-chrome): a renderer process that took
  // ~1 s of CPU per window, and so per test (each has its own browser context), for nothing a page
  // or a test sees. Measured on Chromium 156 with CDP's SystemInfo.getProcessInfo.
  //
  // It also starts a spare renderer process beside each browser context's first page, kept warm
  // for a next navigation to another site that a test's context never makes: ~70 ms of CPU per
  // context for a process that is closed unused (Chromium 156, counted with
  // SystemInfo.getProcessInfo: 2 renderers per context with it, 1 without).
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'].join(',')}`,
];
