// The preview against hostile archives: every technique of the corpus is uploaded to an archive
// and opened on its detail page; nothing in it may run, reach the network (the live web stand-in
// must receive nothing), navigate, open windows or touch the app. Each detector is proven on the
// raw page opened without the preview's protections.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { devices } from '@playwright/test';
import type {
  Browser,
  BrowserContext,
  FrameLocator,
  Locator,
  Page,
  Request,
} from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import {
  attackJs,
  hostilePages,
  type HostileLink,
  type HostilePage,
} from '../test/support/hostile-pages.ts';
import { expect, startArchive, test, type Archive } from './support/fixtures.ts';
import { startLiveWeb, type LiveWeb } from './support/live-web.ts';
import { settled, trackRequests } from './support/settled.ts';

const PREVIEW = 'iframe[title^="Preview of"]';

/** The corpus as listed (the real files are built per test, against that test's live web). */
const CATALOG = hostilePages('http://127.0.0.1:9');

function hostileFor(name: string, liveOrigin: string): HostilePage {
  const found = hostilePages(liveOrigin).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no hostile page named ${name}`);
  return found;
}

let assetPaths: ReadonlySet<string> | undefined;

/**
 * The files of the built app (`vite build`), as request paths: the app's own static assets. Read
 * once per worker: the build does not change while the suite runs.
 */
function builtAssets(): ReadonlySet<string> {
  assetPaths ??= readBuiltAssets();
  return assetPaths;
}

function readBuiltAssets(): Set<string> {
  const dist = resolve(import.meta.dirname, '../dist');
  const paths = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else paths.add(`/${relative(dist, path).split(sep).join('/')}`);
    }
  };
  walk(dist);
  return paths;
}

interface BrowserLog {
  requests: { request: Request; navigation: boolean; mainFrame: boolean; from: Page | null }[];
  popups: { page: Page; description: string }[];
}

/**
 * Records every request of every page in the context and every new page or popup, until `stop`
 * (a context the corpus's previews share outlives each test's log).
 */
function watchBrowser(context: BrowserContext, page: Page): BrowserLog & { stop(): void } {
  const log: BrowserLog = { requests: [], popups: [] };
  const onRequest = (request: Request) => {
    let mainFrame = false;
    let from: Page | null = null;
    try {
      mainFrame = request.frame() === page.mainFrame();
      from = request.frame().page();
    } catch {
      // Service-worker requests have no frame.
    }
    log.requests.push({ request, navigation: request.isNavigationRequest(), mainFrame, from });
  };
  const onPage = (opened: Page) =>
    log.popups.push({ page: opened, description: `new page ${opened.url()}` });
  const onPopup = (popup: Page) =>
    log.popups.push({ page: popup, description: `popup ${popup.url()}` });
  context.on('request', onRequest);
  context.on('page', onPage);
  page.on('popup', onPopup);
  return {
    ...log,
    stop() {
      context.off('request', onRequest);
      context.off('page', onPage);
      page.off('popup', onPopup);
    },
  };
}

/** What a click on a link legitimately leaves: the tab it opened, and that tab's requests. */
interface ExpectedTabs {
  tabs: Set<Page>;
  /** Requests the live web may receive from those tabs ("GET /path"), each once. */
  liveRequests: string[];
  /**
   * The addresses the tabs opened, each once: a new tab's first request comes before its page
   * exists, so it has no page to tell where it came from.
   */
  urls: string[];
}

interface AppState {
  url: string;
  title: string;
  pwned: unknown;
  liveScriptRan: unknown;
  storage: string;
  cookie: string;
}

async function appState(page: Page): Promise<AppState | string> {
  try {
    return await page.evaluate(() => {
      const globals = window as unknown as Record<string, unknown>;
      let storage = '';
      try {
        storage = JSON.stringify(Object.entries(localStorage));
      } catch {
        storage = '<localStorage unavailable>';
      }
      let cookie = '';
      try {
        cookie = document.cookie;
      } catch {
        cookie = '<cookie unavailable>';
      }
      return {
        url: location.href,
        title: document.title,
        pwned: globals.__pwned,
        liveScriptRan: globals.__liveScriptRan,
        storage,
        cookie,
      };
    });
  } catch (error) {
    // The app's document went away (navigated) while we looked at it.
    return `the app window could not be read: ${String(error)}`;
  }
}

interface LeakCheck {
  page: Page;
  context: BrowserContext;
  live: LiveWeb;
  log: BrowserLog;
  /** The archive the app runs on, or null for a raw page outside the app. */
  archive: Archive | null;
  /** The app address the page must stay on. */
  expectedUrl: string | null;
  titleBefore: string;
  assets: ReadonlySet<string>;
  /** Tabs the test opened on purpose (link clicks), which are no leak. */
  expected?: ExpectedTabs;
}

/** Everything observable a working attack would leave behind, as human-readable findings. */
async function findLeaks(check: LeakCheck): Promise<string[]> {
  const { page, context, live, log, archive, expectedUrl, titleBefore, assets } = check;
  const expected = check.expected ?? { tabs: new Set<Page>(), liveRequests: [], urls: [] };
  const tabUrls = [...expected.urls];
  const leaks: string[] = [];
  const allowed = [...expected.liveRequests];
  for (const request of live.requests) {
    const index = allowed.indexOf(request);
    // A new tab is a top-level page: Chromium asks it for a favicon.
    if (index >= 0) allowed.splice(index, 1);
    else if (!(expected.tabs.size > 0 && request === 'GET /favicon.ico')) {
      leaks.push(`the live web received ${request}`);
    }
  }
  for (const popup of log.popups) {
    if (!expected.tabs.has(popup.page)) leaks.push(`a window opened: ${popup.description}`);
  }

  for (const { request, navigation, mainFrame, from } of log.requests) {
    if (from !== null && expected.tabs.has(from)) continue;
    if (from === null && navigation && tabUrls.includes(request.url())) {
      tabUrls.splice(tabUrls.indexOf(request.url()), 1);
      continue;
    }
    const url = request.url();
    const parsed = new URL(url);
    if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) continue;
    if (archive && parsed.origin === archive.url) {
      if (parsed.pathname.startsWith('/public/api/')) continue;
      if (assets.has(parsed.pathname)) continue;
      if (navigation && mainFrame && url === expectedUrl) continue;
    }
    // Chromium reports requests its Content-Security-Policy refused too: they never left the
    // browser, but the sanitizer should not have let the address through either.
    const blocked = request.failure()?.errorText === 'csp' ? ', blocked by CSP' : '';
    leaks.push(
      `${request.resourceType()} request to ${url}${navigation ? ' (navigation)' : ''}${blocked}`,
    );
  }

  const state = await appState(page);
  if (typeof state === 'string') {
    leaks.push(state);
  } else {
    if (state.pwned !== undefined) leaks.push(`window.__pwned = ${JSON.stringify(state.pwned)}`);
    if (state.liveScriptRan !== undefined) leaks.push('a live-web script ran in the app window');
    if (/pwned|LIVE SCRIPT RAN/i.test(state.title)) leaks.push(`the app title is "${state.title}"`);
    else if (state.title !== titleBefore) {
      leaks.push(`the app title changed from "${titleBefore}" to "${state.title}"`);
    }
    if (/pwned/i.test(state.storage)) leaks.push(`localStorage holds ${state.storage}`);
    if (/pwned/i.test(state.cookie)) leaks.push(`document.cookie is "${state.cookie}"`);
    if (expectedUrl !== null && state.url !== expectedUrl) {
      leaks.push(`the app left ${expectedUrl} for ${state.url}`);
    }
  }
  if (expectedUrl !== null && page.url() !== expectedUrl) leaks.push(`page.url() is ${page.url()}`);
  for (const cookie of await context.cookies()) {
    if (/pwned/i.test(`${cookie.name}=${cookie.value}`)) {
      leaks.push(`a cookie was set: ${cookie.name}=${cookie.value} (${cookie.domain})`);
    }
  }
  return leaks;
}

type ProblemKind =
  | 'script'
  | 'handler'
  | 'javascript-url'
  | 'live-reference'
  | 'element'
  | 'sandbox'
  | 'policy'
  | 'clobbering';

interface Problem {
  kind: ProblemKind;
  where: string;
  detail: string;
}

/**
 * Runs in the app window (or a raw page): walks the preview document (`frameSelector`) or the page
 * itself (`null`), its nested frames and shadow roots, and reports what a sanitized preview must not
 * contain. Self-contained: Playwright serializes it into the browser.
 */
function scanDom(args: { liveHost: string; frameSelector: string | null }): Problem[] {
  const { liveHost, frameSelector } = args;
  const problems: Problem[] = [];
  const add = (kind: ProblemKind, where: string, detail: string) =>
    problems.push({ kind, where, detail: detail.slice(0, 200) });
  const FORBIDDEN_SANDBOX = [
    'allow-scripts',
    'allow-forms',
    'allow-popups',
    'allow-top-navigation',
    'allow-top-navigation-by-user-activation',
    'allow-top-navigation-to-custom-protocols',
    'allow-modals',
  ];
  const DROPPED = ['base', 'object', 'embed', 'applet', 'portal', 'fencedframe', 'noscript'];
  // Elements whose name (or id) becomes a property of the document, shadowing its members.
  const NAMED = ['img', 'form', 'iframe', 'frame', 'embed', 'object'];
  const fresh = document.implementation.createHTMLDocument('');

  const checkFrameElement = (frame: Element, where: string) => {
    const sandbox = frame.getAttribute('sandbox');
    if (sandbox === null) {
      add('sandbox', where, `<${frame.localName}> without a sandbox attribute`);
      return;
    }
    const tokens = sandbox.toLowerCase().split(/\s+/);
    for (const token of FORBIDDEN_SANDBOX) {
      if (tokens.includes(token)) add('sandbox', where, `sandbox="${sandbox}"`);
    }
  };

  const scanSheets = (sheets: StyleSheetList | CSSStyleSheet[], where: string) => {
    const visitSheet = (sheet: CSSStyleSheet, depth: number) => {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch {
        // A blob:/data: sheet that did not load (a policy blocked it) has no readable rules; any
        // other unreadable sheet came from another origin.
        if (!/^(blob|data):/i.test(sheet.href ?? 'blob:')) {
          add('live-reference', where, `a cross-origin stylesheet ${sheet.href}`);
        }
        return;
      }
      for (const rule of Array.from(rules)) {
        if (rule.cssText.includes(liveHost)) add('live-reference', where, `CSS ${rule.cssText}`);
        if (rule instanceof CSSImportRule && rule.styleSheet && depth < 8) {
          visitSheet(rule.styleSheet, depth + 1);
        }
      }
    };
    for (const sheet of Array.from(sheets)) visitSheet(sheet, 0);
  };

  const scanRoot = (root: Document | ShadowRoot, where: string) => {
    for (const element of Array.from(root.querySelectorAll('*'))) {
      const tag = element.localName;
      if (tag === 'script') add('script', where, element.outerHTML);
      if (DROPPED.includes(tag)) add('element', where, `<${tag}>`);
      if (tag === 'meta') {
        const equiv = (element.getAttribute('http-equiv') ?? '').toLowerCase();
        if (equiv === 'refresh' || equiv === 'set-cookie') {
          add('element', where, `<meta http-equiv="${equiv}">`);
        }
      }
      for (const attribute of Array.from(element.attributes)) {
        const { name, value } = attribute;
        if ((name === 'name' || name === 'id') && NAMED.includes(tag) && value in fresh) {
          add('clobbering', where, `<${tag} ${name}="${value}"> shadows document.${value}`);
        }
        if (/^on/i.test(name)) add('handler', where, `<${tag} ${name}="${value}">`);
        // Browsers ignore ASCII whitespace and control characters in a URL's scheme.
        const squeezed = Array.from(value)
          .filter((char) => char.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase();
        if (squeezed.includes('javascript:')) {
          add('javascript-url', where, `<${tag} ${name}="${value}">`);
        }
        // A link's href is kept on purpose (a click opens it in a new tab); a frame's srcdoc is
        // checked as the document it becomes.
        const isLink = (tag === 'a' || tag === 'area') && /^(xlink:)?href$/.test(name);
        if (!isLink && name !== 'srcdoc' && value.includes(liveHost)) {
          add('live-reference', where, `<${tag} ${name}="${value}">`);
        }
      }
      if (tag === 'style' && (element.textContent ?? '').includes(liveHost)) {
        add('live-reference', where, `<style>${element.textContent}`);
      }
      if (element.shadowRoot) {
        scanRoot(element.shadowRoot, `${where} > shadow root`);
        scanSheets(element.shadowRoot.styleSheets, `${where} > shadow root`);
      }
      if (tag === 'iframe' || tag === 'frame') {
        const nested = `${where} > ${tag}`;
        checkFrameElement(element, nested);
        const frameDocument = (element as HTMLIFrameElement).contentDocument;
        const srcdoc = element.getAttribute('srcdoc');
        // A frame whose source was dropped shows an empty about:blank document (nothing to
        // protect); any frame with content must be a sanitized document with its own policy.
        const empty =
          srcdoc === null &&
          !frameDocument?.head?.firstElementChild &&
          !frameDocument?.body?.firstElementChild;
        const sanitized = !empty;
        if (frameDocument) scanDocument(frameDocument, nested, sanitized);
        else if (srcdoc !== null) {
          scanDocument(new DOMParser().parseFromString(srcdoc, 'text/html'), nested, true);
        }
      }
    }
  };

  const scanDocument = (doc: Document, where: string, sanitized: boolean) => {
    scanRoot(doc, where);
    scanSheets(doc.styleSheets, where);
    if (!sanitized) return;
    const policies = Array.from(doc.querySelectorAll('meta')).filter(
      (meta) => (meta.getAttribute('http-equiv') ?? '').toLowerCase() === 'content-security-policy',
    );
    const first = doc.head?.firstElementChild ?? null;
    if (!first || !policies.includes(first as HTMLMetaElement)) {
      add('policy', where, `the first element of <head> is not a CSP meta: ${first?.outerHTML}`);
    }
    const content = (policies[0]?.getAttribute('content') ?? '').toLowerCase();
    if (!content.includes("default-src 'none'") || /script-src/.test(content)) {
      add('policy', where, `CSP "${content}"`);
    }
    if (policies.length > 1) {
      add('policy', where, `${policies.length} CSP metas (the archive's own was kept)`);
    }
  };

  if (frameSelector === null) {
    scanDocument(document, 'page', false);
    return problems;
  }
  const frame = document.querySelector(frameSelector);
  if (!frame) return [{ kind: 'sandbox', where: 'app', detail: 'no preview frame' }];
  checkFrameElement(frame, 'preview');
  if (frame.getAttribute('referrerpolicy') !== 'no-referrer') {
    add('policy', 'preview', `referrerpolicy="${frame.getAttribute('referrerpolicy')}"`);
  }
  const doc = (frame as HTMLIFrameElement).contentDocument;
  if (!doc) return [{ kind: 'sandbox', where: 'preview', detail: 'the frame is not same-origin' }];
  scanDocument(doc, 'preview', true);
  return problems;
}

/** Clicks the attack's trigger if the preview kept it; a removed trigger is a fine outcome. */
async function clickTrigger(page: Page, selector: string, inPreview: boolean): Promise<string> {
  const scope = inPreview ? page.frameLocator(PREVIEW) : page;
  const target = scope.locator(selector).first();
  if ((await target.count()) === 0) return 'the trigger was removed';
  try {
    await target.click({ timeout: 2_000, force: true, noWaitAfter: true });
    return 'clicked the trigger';
  } catch (error) {
    return `the trigger could not be clicked: ${String(error).split('\n')[0]}`;
  }
}

/** A link's locator through its frames, from `root` (the preview frame, or a raw page). */
function linkLocator(
  root: Page | FrameLocator,
  link: HostileLink,
): { scope: Page | FrameLocator; target: Locator } {
  let scope: Page | FrameLocator = root;
  for (const frame of link.frames) scope = scope.frameLocator(frame);
  return { scope, target: scope.locator(link.selector) };
}

/**
 * Clicks every link the page lists, in the preview: each opens one new tab at its archived
 * address, without opener, and the document it is in keeps showing the archive. Returns the tabs
 * and what they may ask the live web for.
 */
async function clickLinks(
  page: Page,
  context: BrowserContext,
  links: readonly HostileLink[],
): Promise<ExpectedTabs> {
  const expected: ExpectedTabs = { tabs: new Set(), liveRequests: [], urls: [] };
  for (const link of links) {
    const { scope, target } = linkLocator(page.frameLocator(PREVIEW), link);
    const where = [...link.frames, link.selector].join(' > ');
    await expect(target, where).toHaveCount(1);
    await expect(target, where).toBeVisible();
    // Forced: Playwright's own checks call `getAttribute` on the link's ancestors, which a form
    // with an `<input name="getAttribute">` shadows (the app reads them through the prototypes).
    const [tab] = await Promise.all([
      context.waitForEvent('page', { timeout: 10_000 }),
      target.click({ force: true }),
    ]);
    expected.tabs.add(tab);
    expected.liveRequests.push(`GET ${new URL(link.href).pathname}`);
    expected.urls.push(link.href);
    await tab.waitForURL(link.href);
    expect(await tab.evaluate(() => window.opener), where).toBeNull();
    await tab.close();
    await expect(scope.getByText(link.text, { exact: true }), where).toBeVisible();
  }
  // No frame of the preview left its archived document (for the live web or an error page).
  const left = page
    .frames()
    .filter((frame) => frame !== page.mainFrame())
    .map((frame) => frame.url())
    .filter((url) => url !== 'about:srcdoc' && url !== 'about:blank');
  expect(left, 'frames that left the archive').toEqual([]);
  return expected;
}

/** An app tab the corpus's previews share, on the worker's archive. */
interface HostileTab {
  archive: Archive;
  context: BrowserContext;
  page: Page;
}

/**
 * The corpus's previews share one server and one app tab per worker: each test uploads its own
 * page (a title of its own) and has the app show that page's details, as a click in the app does
 * (a history entry; the router follows it), against a live web of its own. What a leak leaves
 * shows in the test's own log of requests and windows, at its own live web, or in the app window
 * itself; a test that fails leaves the tab to be replaced, so that the next starts clean.
 * Starting a server and booting the app for each of the 70 previews cost more than the previews.
 */
const corpus = test.extend<{ hostileTab: HostileTab }, { hostileWorker: HostileWorker }>({
  hostileWorker: [
    async ({ browser }, use) => {
      const archive = await startArchive();
      const worker = new HostileWorker(archive, browser);
      await use(worker);
      await worker.closeTab();
      await archive.stop();
    },
    { scope: 'worker' },
  ],
  hostileTab: async ({ hostileWorker }, use, testInfo) => {
    const tab = await hostileWorker.tab();
    // A link the last test clicked opened (and closed) a tab: Chromium left the app's tab in the
    // background, where it draws no frames.
    await tab.page.bringToFront();
    await use(tab);
    if (testInfo.status !== testInfo.expectedStatus) await hostileWorker.closeTab();
  },
});

class HostileWorker {
  private current: Promise<HostileTab> | undefined;

  constructor(
    private readonly archive: Archive,
    private readonly browser: Browser,
  ) {}

  /** The shared tab, opened (the app booted on the library) when there is none. */
  tab(): Promise<HostileTab> {
    this.current ??= (async () => {
      // The options the config gives each test's own context.
      const context = await this.browser.newContext({
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      await this.archive.open(page, '/');
      await expect(page.getByRole('main')).toBeVisible();
      return { archive: this.archive, context, page };
    })();
    return this.current;
  }

  async closeTab(): Promise<void> {
    const tab = this.current;
    this.current = undefined;
    await (await tab)?.context.close();
  }
}

/** Has the app show `path`, as following a link in it does (no new document). */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await expect(page).toHaveURL(new URL(path, page.url()).href);
}

for (const { name, ext, click, links } of CATALOG) {
  corpus(
    `preview of ${ext} "${name}": shows the content, nothing runs or leaves`,
    async ({ hostileTab: { archive, context, page } }) => {
      const assets = builtAssets();
      const live = await startLiveWeb();
      const log = watchBrowser(context, page);
      const tracker = trackRequests(context);
      try {
        const hostile = hostileFor(name, live.origin);
        const { id } = await archive.upload(hostile.file, hostile.ext, {
          title: `Hostile page ${name}`,
        });
        const expectedUrl = `${archive.url}/webpages/${id}`;
        await navigateInApp(page, `/webpages/${id}`);

        const frame = page.frameLocator(PREVIEW);
        // Megabyte-sized pages take a while to build on a busy machine.
        await expect(frame.getByText(hostile.marker, { exact: true })).toBeVisible({
          timeout: 20_000,
        });
        await expect(
          page.getByRole('heading', { name: `Hostile page ${name}`, exact: true }),
        ).toBeVisible();
        const titleBefore = await page.title();
        if (click) {
          test.info().annotations.push({
            type: 'click',
            description: await clickTrigger(page, click, true),
          });
        }
        const expected = links ? await clickLinks(page, context, hostile.links ?? []) : undefined;
        await settled(page, tracker);

        const leaks = await findLeaks({
          page,
          context,
          live,
          log,
          archive,
          expectedUrl,
          titleBefore,
          assets,
          ...(expected ? { expected } : {}),
        });
        expect(leaks, `what "${name}" achieved`).toEqual([]);

        const liveHost = new URL(live.origin).host;
        const problems = await page.evaluate(scanDom, { liveHost, frameSelector: PREVIEW });
        expect(problems, `what the preview of "${name}" still contains`).toEqual([]);
        // Still showing the page after everything had its chance to run.
        await expect(frame.getByText(hostile.marker, { exact: true })).toBeVisible();
      } finally {
        log.stop();
        tracker.stop();
        await live.close();
      }
    },
  );
}

// The detectors above, proven: the same pages opened as plain pages, without the preview.
for (const { name, click, leaksUnsandboxed } of CATALOG.filter(({ ext }) => ext === 'html')) {
  test(`detector: raw "${name}" is caught when opened unprotected`, async ({
    page,
    context,
    liveWeb: live,
  }) => {
    const hostile = hostileFor(name, live.origin);
    const log = watchBrowser(context, page);
    const liveHost = new URL(live.origin).host;

    // Parsing alone: the DOM scan finds the attack in the unsanitized document, unless the page
    // has navigated away by then (during the scan, which throws, or before it, which scans the
    // page it went to): that navigation is the attack seen.
    await page.setContent(hostile.file.toString('utf8'), { waitUntil: 'commit' });
    const navigatedAway = { kind: 'element', where: 'page', detail: 'navigated away' } as Problem;
    const problems = await page
      .evaluate(scanDom, { liveHost, frameSelector: null })
      .catch(() => [navigatedAway]);
    if (page.url() !== 'about:blank') problems.push(navigatedAway);
    expect(problems.filter(({ kind }) => kind !== 'policy').length).toBeGreaterThan(0);

    if (!leaksUnsandboxed) return;
    if (click) await clickTrigger(page, click, false);
    // Unprotected, a link in a frame navigates that frame (to the live web): the deepest link
    // that can be clicked (Playwright cannot reach into a closed shadow root).
    for (const link of [...(hostile.rawLinks ?? [])].reverse()) {
      const clicked = await linkLocator(page, link)
        .target.click({ timeout: 3_000, force: true, noWaitAfter: true })
        .then(() => true)
        .catch(() => false);
      if (clicked) break;
    }
    const check = {
      page,
      context,
      live,
      log,
      archive: null,
      expectedUrl: null,
      titleBefore: `Hostile page: ${name}`,
      assets: new Set<string>(),
    };
    await expect
      .poll(async () => (await findLeaks(check)).length, { timeout: 5_000 })
      .toBeGreaterThan(0);
  });
}

test('after a click on a link among controls named after DOM members, the app still navigates', async ({
  page,
  context,
  archive,
  liveWeb: live,
}) => {
  // React walks up from the focused element after a commit; a form control named `parentNode`
  // made that walk go round forever once a link in its form had the focus (the tab hung).
  const hostile = hostileFor('clobbered-names', live.origin);
  const { id } = await archive.upload(hostile.file, hostile.ext, { title: 'Clobbering forms' });
  await archive.open(page, `/webpages/${id}`);
  await expect(page.frameLocator(PREVIEW).getByText(hostile.marker, { exact: true })).toBeVisible();
  const deepest = hostile.links?.at(-1);
  if (!deepest) throw new Error('the clobbering page has no links');
  const { target } = linkLocator(page.frameLocator(PREVIEW), deepest);
  const [tab] = await Promise.all([
    context.waitForEvent('page', { timeout: 10_000 }),
    target.click({ force: true }),
  ]);
  await tab.close();
  await page.bringToFront();

  // The focus is still on the link, in the archived document: a key the app answers there
  // navigates (a click elsewhere would first move the focus into the app).
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('title') ?? null);
  expect(await focused()).toBe('Preview of Clobbering forms');
  await page.keyboard.press('u');
  await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => location.pathname)).toBe('/upload');
});

test('titles, labels and links are shown as text, never run as markup', async ({
  page,
  context,
  archive,
}) => {
  const tracker = trackRequests(context);
  const title = `<img src=x onerror="window.__pwned='title'">`;
  const labels = [
    `<img src=x onerror="window.__pwned='label'">`,
    '<b>bold-label</b>',
    `<script>window.__pwned='label-script'</script>`,
  ];
  const link = 'https://example.org/?q=<script>';
  const { id } = await archive.upload(
    makeHtml({ title: 'Plain title', body: '<p>SAFE-CONTENT-markup</p>' }),
    'html',
    { title, link },
  );
  await archive.api('PATCH', `/webpages/${id}`, { labels });
  const stored = await archive.api<{ title: string; link: string; labels: string[] }>(
    'GET',
    `/webpages/${id}`,
  );
  expect(stored.title).toBe(title);
  expect(stored.labels).toEqual(labels);

  await archive.open(page, '/');
  await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible();
  for (const label of labels) await expect(page.getByText(label, { exact: true })).toBeVisible();
  await expect(page.getByText('example.org', { exact: true }).first()).toBeVisible();

  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page).toHaveURL(`${archive.url}/webpages/${id}`);
  await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  const chips = page.getByRole('list', { name: 'Labels' });
  for (const label of labels) await expect(chips.getByText(label, { exact: true })).toBeVisible();
  await expect(page.getByText(stored.link, { exact: true })).toBeVisible();
  await expect(
    page.frameLocator(PREVIEW).getByText('SAFE-CONTENT-markup', { exact: true }),
  ).toBeVisible();
  await settled(page, tracker);

  const app = await page.evaluate(
    (selector) => ({
      pwned: (window as unknown as Record<string, unknown>).__pwned,
      markupImages: document.querySelectorAll('img[src="x"]').length,
      bold: Array.from(document.querySelectorAll('b')).filter((b) => b.textContent === 'bold-label')
        .length,
      scripts: Array.from(document.querySelectorAll('script')).filter((script) =>
        (script.textContent ?? '').includes('__pwned'),
      ).length,
      previewTitle: document.querySelector(selector)?.getAttribute('title') ?? null,
    }),
    PREVIEW,
  );
  expect(app).toEqual({
    pwned: undefined,
    markupImages: 0,
    bold: 0,
    scripts: 0,
    previewTitle: `Preview of ${title}`,
  });
});

test('links in the preview open in a new tab; javascript: links do nothing', async ({
  page,
  context,
  archive,
  liveWeb: live,
}) => {
  // Its own live web: the new tab is the one request it may receive.
  const target = `${live.origin}/link-click/target`;
  const file = makeHtml({
    title: 'Links',
    body:
      '<p>SAFE-CONTENT-links</p>' +
      `<p><a href="${target}">Open the live page</a></p>` +
      `<p><a href="javascript:${attackJs('link-click-javascript', live.origin)}">Run a script</a></p>` +
      `<p><a href="${live.origin}/link-click/blank" target="_top">Replace the app</a></p>`,
  });
  const { id } = await archive.upload(file, 'html');
  const tracker = trackRequests(context);
  const appUrl = `${archive.url}/webpages/${id}`;
  await archive.open(page, `/webpages/${id}`);
  const frame = page.frameLocator(PREVIEW);
  await expect(frame.getByText('SAFE-CONTENT-links', { exact: true })).toBeVisible();

  const [tab] = await Promise.all([
    context.waitForEvent('page', { timeout: 10_000 }),
    frame.getByRole('link', { name: 'Open the live page' }).click(),
  ]);
  await tab.waitForLoadState('domcontentloaded');
  expect(tab.url()).toBe(target);
  await expect(tab.getByText('LIVE WEB')).toBeVisible();
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();
  expect(page.url()).toBe(appUrl);
  const frameUrl = () =>
    page.evaluate(
      (selector) =>
        (document.querySelector(selector) as HTMLIFrameElement | null)?.contentDocument?.URL,
      PREVIEW,
    );
  expect(await frameUrl()).toBe('about:srcdoc');

  // A target=_top link opens a tab too; it never replaces the app.
  const [second] = await Promise.all([
    context.waitForEvent('page', { timeout: 10_000 }),
    frame.getByRole('link', { name: 'Replace the app' }).click(),
  ]);
  await second.close();
  expect(page.url()).toBe(appUrl);

  const opened: string[] = [];
  context.on('page', (other) => opened.push(other.url()));
  await frame.getByText('Run a script', { exact: true }).click();
  await settled(page, tracker);
  expect(opened).toEqual([]);
  expect(page.url()).toBe(appUrl);
  expect(await frameUrl()).toBe('about:srcdoc');
  expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__pwned)).toBe(
    undefined,
  );
  await expect(frame.getByText('SAFE-CONTENT-links', { exact: true })).toBeVisible();
  // The new tabs are top-level pages: Chromium asks them for a favicon.
  expect(live.requests.filter((request) => request !== 'GET /favicon.ico')).toEqual([
    'GET /link-click/target',
    'GET /link-click/blank',
  ]);
});
