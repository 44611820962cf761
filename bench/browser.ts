// Browser figures (Debian's Chromium through Playwright) against the server process on the seeded
// archive: the list's first rows, a view of ~5,000 pages (rows in the DOM, scrolling) and the
// previews of a 16 MB MHTML and of a long HTML page (108,000 elements). A screen that is not there
// yet gives a null figure with the reason.
import { chromium, type Browser, type Page } from '@playwright/test';
import { makeLargeMhtml, makeLongHtml, MB } from './fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.ts';
import { log, percentile, type Report } from './report.ts';
import type { SeedInfo } from './seed.ts';
import type { HttpClient, ServerProcess } from './server-process.ts';

/** What counts as a row of a webpage list, now (`li.webpage-row`) or once virtualised. */
const ROW_SELECTOR = 'li.webpage-row, [role="row"]';
const VIEW_TARGET = 5000;
const FRAME_MS = 1000 / 60;
/** How long a reader looks at the library before the click, in the scenario that says so. */
const GLANCE_MS = 1500;
/** Posts of the long page previewed (`makeLongHtml`): 3.3 MB, 108,000 elements. */
const LONG_PAGE_POSTS = 6000;

declare global {
  interface Window {
    __bench?: {
      firstRow: number | null;
      firstRowPainted: number | null;
      longTasks: { start: number; duration: number }[];
      frames: number[];
      recordFrames: boolean;
      /** Starts recording frames (until `recordFrames` is set false). */
      startFrames?: () => void;
      /** When the measured click happened (its event time), or null. */
      clickAt: number | null;
    };
  }
}

/**
 * Installed before every document: first-row time (navigation-relative), long tasks, frames while
 * asked to (`startFrames`). A
 * string, not a function: tsx would add helpers (`__name`) that do not exist in the page.
 */
function instrument(selector: string): string {
  return `(() => {
    const bench = { firstRow: null, firstRowPainted: null, longTasks: [], frames: [], recordFrames: false, clickAt: null };
    window.__bench = bench;
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch {}
    const selector = ${JSON.stringify(selector)};
    const check = () => {
      if (bench.firstRow !== null || document.querySelector(selector) === null) return;
      bench.firstRow = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        bench.firstRowPainted = performance.now();
      }));
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    // Frames are counted only while recording (the view's scroll): an animation frame asked for
    // every frame would make the renderer draw one every 16 ms all through the other figures.
    const frame = (time) => {
      if (!bench.recordFrames) return;
      bench.frames.push(time);
      requestAnimationFrame(frame);
    };
    bench.startFrames = () => {
      bench.frames.length = 0;
      bench.recordFrames = true;
      requestAnimationFrame(frame);
    };
  })();`;
}

async function bench(page: Page) {
  return page.evaluate(() => {
    const state = window.__bench;
    return state === undefined
      ? undefined
      : {
          firstRow: state.firstRow,
          firstRowPainted: state.firstRowPainted,
          longTasks: [...state.longTasks],
          frames: [...state.frames],
          clickAt: state.clickAt,
        };
  });
}

/** Navigates and waits for the first painted row; ms from navigation start, or null. */
async function timeToRows(page: Page, url: string, timeoutMs: number): Promise<number | null> {
  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => window.__bench?.firstRowPainted != null, null, {
      timeout: timeoutMs,
      polling: 50,
    });
  } catch {
    return null;
  }
  return (await bench(page))?.firstRowPainted ?? null;
}

function longest(tasks: readonly { duration: number }[]): number {
  return tasks.reduce((max, task) => Math.max(max, task.duration), 0);
}

export interface BrowserBenchOptions {
  quick: boolean;
  server: ServerProcess;
  client: HttpClient;
  seed: SeedInfo;
}

export async function benchBrowser(report: Report, options: BrowserBenchOptions): Promise<void> {
  const executablePath = CHROMIUM_PATH;
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    const reason = `Chromium did not start (${executablePath}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    for (const name of [
      'browser.list.first-rows.cold',
      'browser.view5000.show',
      'browser.preview16mb.click-to-paint',
      'browser.previewLongHtml.click-to-paint',
    ]) {
      report.unmeasurable(name, 'ms', reason);
    }
    return;
  }
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript({ content: instrument(ROW_SELECTOR) });
    const page = await context.newPage();
    const origin = options.server.origin;
    const token = encodeURIComponent(options.server.token);

    // 1. The list: first visit (nothing cached), then repeat visits.
    log('browser: list first rows');
    const cold = await timeToRows(page, `${origin}/#token=${token}`, 15_000);
    if (cold === null) {
      report.unmeasurable('browser.list.first-rows.cold', 'ms', 'no list row appeared within 15 s');
    } else {
      report.add({
        name: 'browser.list.first-rows.cold',
        value: cold,
        unit: 'ms',
        note: 'first visit: navigation start → first row painted',
      });
      const warm: number[] = [];
      for (let i = 0; i < (options.quick ? 2 : 5); i++) {
        const time = await timeToRows(page, `${origin}/`, 15_000);
        if (time !== null) warm.push(time);
      }
      if (warm.length > 0) {
        report.add({
          name: 'browser.list.first-rows.warm',
          value: percentile(warm, 50),
          unit: 'ms',
          n: warm.length,
          note: 'repeat visit (assets cached), median',
        });
      }
      const state = await bench(page);
      report.add({
        name: 'browser.list.longest-task',
        value: longest(state?.longTasks ?? []),
        unit: 'ms',
        note: 'during the last list load',
      });
    }

    await benchView(report, page, options);
    // FOLIO_BENCH_TRACE=<file.json>: a Chromium trace of one preview, from before the click to the
    // paint (open it in chrome://tracing or Perfetto to see each thread's tasks), with V8's samples
    // of the JavaScript each thread ran (ProfileChunk events: the worker's own functions). The 16 MB
    // MHTML's, or the long page's with FOLIO_BENCH_TRACE_PAGE=long (until it is whole).
    const tracePath = process.env.FOLIO_BENCH_TRACE;
    const traced =
      process.env.FOLIO_BENCH_TRACE_PAGE === 'long' ? 'previewLongHtml' : 'preview16mb';
    const tracing = async (key: string, run: () => Promise<void>) => {
      if (!tracePath || key !== traced) return run();
      await browser.startTracing(page, {
        path: tracePath,
        categories: [
          'toplevel',
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8',
          'blink',
          'loading',
          'disabled-by-default-v8.cpu_profiler',
        ],
      });
      try {
        await run();
      } finally {
        await browser.stopTracing();
      }
    };
    const nonce = `${process.pid}-${Date.now()}`;
    const mhtml = makeLargeMhtml(16 * MB, `preview-${nonce}`);
    await tracing('preview16mb', () =>
      benchPreview(report, page, options, {
        key: 'preview16mb',
        label: `a 16 MB MHTML (${(mhtml.length / MB).toFixed(1)} MiB, 6 noise PNGs)`,
        file: mhtml,
        ext: 'mhtml',
        images: true,
        reopen: true,
      }),
    );
    const glanced = makeLargeMhtml(16 * MB, `glance-${nonce}`);
    await benchPreview(report, page, options, {
      key: 'preview16mbAfterGlance',
      label: `another 16 MB MHTML, clicked ${GLANCE_MS / 1000} s after its row was shown`,
      file: glanced,
      ext: 'mhtml',
      images: true,
      glanceMs: GLANCE_MS,
    });
    const long = makeLongHtml(LONG_PAGE_POSTS, `long-${nonce}`);
    await tracing('previewLongHtml', () =>
      benchPreview(report, page, options, {
        key: 'previewLongHtml',
        label: `a long HTML page (${(long.length / MB).toFixed(1)} MiB, ${LONG_PAGE_POSTS} posts of 18 elements)`,
        file: long,
        ext: 'html',
        images: false,
      }),
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

/** Hosts whose live pages add up to about `target` (greedy, most used first). */
function hostsFor(seed: SeedInfo, target: number): { hosts: string[]; expected: number } {
  const hosts: string[] = [];
  let expected = 0;
  for (const { host, count } of seed.hosts) {
    if (expected + count > target * 1.02) continue;
    hosts.push(host);
    expected += count;
    if (expected >= target * 0.98) break;
  }
  return { hosts, expected };
}

async function benchView(report: Report, page: Page, options: BrowserBenchOptions): Promise<void> {
  log('browser: view of ~5,000 pages');
  const { hosts, expected } = hostsFor(options.seed, VIEW_TARGET);
  const view = await options.client.data<{ id: string }>('POST', '/views', {
    title: 'bench 5000',
    filters: [{ type: 2, key: 'host', operator: true, rightOperand: hosts }],
  });
  try {
    const shown = await timeToRows(page, `${options.server.origin}/views/${view.id}`, 30_000);
    if (shown === null) {
      for (const name of [
        'browser.view5000.show',
        'browser.view5000.dom-rows.initial',
        'browser.view5000.scroll.longest-task',
      ]) {
        report.unmeasurable(
          name,
          name.includes('rows') ? 'rows' : 'ms',
          'no row of the view appeared within 30 s',
        );
      }
      return;
    }
    report.add({
      name: 'browser.view5000.show',
      value: shown,
      unit: 'ms',
      note: `${expected} pages: navigation start → first row painted`,
    });
    await page.waitForTimeout(500);
    const initialRows = await page.locator(ROW_SELECTOR).count();
    report.add({ name: 'browser.view5000.dom-rows.initial', value: initialRows, unit: 'rows' });
    const loadState = await bench(page);
    report.add({
      name: 'browser.view5000.load.longest-task',
      value: longest(loadState?.longTasks ?? []),
      unit: 'ms',
      note: 'while the view loaded',
    });

    // Scroll through the view with the wheel, as a user would, recording tasks and frames.
    const list = page.locator('ul.webpage-list, [role="grid"], [role="table"], main').first();
    const box = await list.boundingBox();
    const x = box ? box.x + Math.min(box.width / 2, 600) : 640;
    const y = box ? Math.min(Math.max(box.y + 100, 200), 800) : 450;
    await page.mouse.move(x, y);
    await page.evaluate(() => {
      const state = window.__bench;
      if (state) {
        state.longTasks.length = 0;
        state.startFrames?.();
      }
    });
    const steps = options.quick ? 40 : 120;
    let maxRows = initialRows;
    for (let step = 0; step < steps; step++) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(30);
      if (step % 10 === 9) maxRows = Math.max(maxRows, await page.locator(ROW_SELECTOR).count());
    }
    await page.waitForTimeout(300);
    await page.evaluate(() => {
      if (window.__bench) window.__bench.recordFrames = false;
    });
    const scrolled = await page.evaluate(() => {
      const element = document.scrollingElement;
      const inner = [...document.querySelectorAll('*')].find(
        (node) => node.scrollTop > 0 && node !== element,
      );
      return Math.max(element?.scrollTop ?? 0, inner?.scrollTop ?? 0);
    });
    const state = await bench(page);
    const tasks = state?.longTasks ?? [];
    const frames = state?.frames ?? [];
    let dropped = 0;
    for (let i = 1; i < frames.length; i++) {
      const gap = (frames[i] ?? 0) - (frames[i - 1] ?? 0);
      dropped += Math.max(0, Math.round(gap / FRAME_MS) - 1);
    }
    report.add({
      name: 'browser.view5000.dom-rows.max',
      value: maxRows,
      unit: 'rows',
      note: 'most rows in the DOM while scrolling',
    });
    report.add({
      name: 'browser.view5000.scroll.longest-task',
      value: longest(tasks),
      unit: 'ms',
      note: `${steps} wheel steps of 400 px, scrolled ${Math.round(scrolled)} px`,
    });
    report.add({
      name: 'browser.view5000.scroll.long-tasks',
      value: tasks.filter((task) => task.duration > 50).length,
      unit: 'tasks',
      note: 'tasks over 50 ms while scrolling',
    });
    report.add({
      name: 'browser.view5000.scroll.dropped-frames',
      value: dropped,
      unit: 'frames',
      note: `of ${frames.length} frames drawn`,
    });
  } finally {
    await options.client.data('DELETE', `/views/${view.id}`);
  }
}

/** A page previewed from a click on its row: what it is and when it counts as painted. */
interface PreviewScenario {
  /** The figures' prefix (`browser.<key>.click-to-paint`, `.longest-task`). */
  key: string;
  /** Said in the log and in the figures' notes. */
  label: string;
  file: Buffer;
  ext: 'html' | 'mhtml';
  /** Whether the page has images that must be loaded and decoded to count as painted. */
  images: boolean;
  /**
   * Whether to time it opened again in a new visit (`.reopen-to-paint`): the detail's address
   * loaded anew, with the browser's caches as the first visit left them and the app's empty.
   */
  reopen?: boolean;
  /**
   * How long the library is shown before the click, as a reader glances at it first: the app's
   * work while it is idle (the detail's code, the preview's worker) is then done. Without it the
   * click comes as soon as the row is shown, the worst case, which the budgets are for.
   */
  glanceMs?: number;
}

/**
 * When the preview's frame shows its document whole and painted (with its images loaded and
 * decoded when `images`), in the page's `performance.now()`; `null` past `timeoutMs`.
 */
async function paintedAt(page: Page, images: boolean, timeoutMs: number): Promise<number | null> {
  try {
    const handle = await page.waitForFunction(
      (withImages) => {
        const frame = document.querySelector<HTMLIFrameElement>('iframe[title^="Preview of"]');
        const doc = frame?.contentDocument;
        if (!doc || doc.URL !== 'about:srcdoc' || doc.readyState !== 'complete') return 0;
        if (withImages) {
          const all = [...doc.images];
          if (all.length === 0 || !all.every((image) => image.complete && image.naturalWidth > 0))
            return 0;
        }
        return new Promise<number>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
        );
      },
      images,
      { timeout: timeoutMs, polling: 'raf' },
    );
    return (await handle.jsonValue()) as number;
  } catch {
    return null;
  }
}

async function benchPreview(
  report: Report,
  page: Page,
  options: BrowserBenchOptions,
  scenario: PreviewScenario,
): Promise<void> {
  const { key, label, file, ext, images } = scenario;
  log(`browser: preview of ${label}`);
  const uploaded = await options.client.data<{ id: string }>('POST', '/webpages', {
    content: file.toString('base64'),
    ext,
  });
  // As a user meets it: from the click on its row in the library (an in-app navigation) to the
  // page painted in the detail's frame (its images too, when it has some). A same-origin frame
  // shares the app's main thread, so the long tasks counted are the whole tab's from the click on.
  await page.goto(`${options.server.origin}/?sort=first_add_time_desc`, { waitUntil: 'commit' });
  const row = page.locator(`a[href="/webpages/${uploaded.id}"]`).first();
  await row.waitFor({ timeout: 30_000 });
  if (scenario.glanceMs !== undefined) await page.waitForTimeout(scenario.glanceMs);
  await page.evaluate(() => {
    const state = window.__bench;
    if (state === undefined) return;
    state.clickAt = null;
    document.addEventListener(
      'click',
      (event) => {
        state.clickAt = event.timeStamp;
      },
      { capture: true, once: true },
    );
  });
  await row.click();
  const clickToPaint = `browser.${key}.click-to-paint`;
  let painted = await paintedAt(page, images, 60_000);
  // A long page shows its top first and the rest as it is added (the frame is aria-busy until
  // then): the long tasks are counted until it is whole.
  let whole: number | null = null;
  if (painted !== null) {
    whole = await page
      .waitForFunction(
        () => {
          const frame = document.querySelector('iframe[title^="Preview of"]');
          return frame && frame.getAttribute('aria-busy') !== 'true' ? performance.now() : 0;
        },
        null,
        { timeout: 120_000, polling: 'raf' },
      )
      .then(async (handle) => (await handle.jsonValue()) as number)
      .catch(() => null);
  }
  // FOLIO_BENCH_RT=1: each resource of the app's still loading at the click or asked for after it
  // (Resource Timing: its start, first byte and end, in ms from the click; negative: before it),
  // printed to see which chain the paint waited for.
  if (process.env.FOLIO_BENCH_RT) {
    // Plain data out of the page (a named function in it would need a helper the page lacks).
    const entries = await page.evaluate(() => {
      const at = window.__bench?.clickAt ?? 0;
      return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.responseEnd >= at)
        .map((entry) => ({
          url: entry.name,
          times: [entry.startTime - at, entry.responseStart - at, entry.responseEnd - at],
        }));
    });
    const lines = entries.map(({ url, times: [start = 0, first = 0, end = 0] }) => {
      const ms = (value: number) => value.toFixed(0).padStart(5);
      const path = new URL(url).pathname.slice(0, 60).padEnd(60);
      return `${path} start ${ms(start)} first byte ${ms(first)} end ${ms(end)}`;
    });
    log(`${key}: resources after the click\n${lines.join('\n')}`);
  }
  const state = await bench(page);
  const clickAt = state?.clickAt ?? null;
  if (painted !== null && clickAt === null) painted = null;
  if (painted === null) {
    const status = await page
      .locator('.preview__error, .preview__status, [role="alert"]')
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => null);
    report.unmeasurable(
      clickToPaint,
      'ms',
      `the frame did not show the page within 60 s${status ? ` (${status.trim()})` : ''}`,
    );
  } else {
    report.add({
      name: clickToPaint,
      value: painted - clickAt!,
      unit: 'ms',
      note: `${label}: click on its row in the library → painted in the detail`,
    });
    if (whole === null) {
      report.unmeasurable(
        `browser.${key}.click-to-whole`,
        'ms',
        'the page was not whole within 120 s',
      );
    } else {
      report.add({
        name: `browser.${key}.click-to-whole`,
        value: whole - clickAt!,
        unit: 'ms',
        note: `${label}: click → every part of the page in the frame (its top is painted first)`,
      });
    }
  }
  const tasks = (state?.longTasks ?? []).filter(
    (task) => clickAt === null || task.start >= clickAt,
  );
  report.add({
    name: `browser.${key}.longest-task`,
    value: longest(tasks),
    unit: 'ms',
    note: `${tasks.length} long tasks in the tab from the click until the page is whole`,
  });
  if (scenario.reopen === true && painted !== null) {
    // The page's time origin is the new navigation's start.
    await page.reload({ waitUntil: 'commit' });
    const reopened = await paintedAt(page, images, 60_000);
    if (reopened === null) {
      report.unmeasurable(`browser.${key}.reopen-to-paint`, 'ms', 'not painted within 60 s');
    } else {
      report.add({
        name: `browser.${key}.reopen-to-paint`,
        value: reopened,
        unit: 'ms',
        note: `${label}: its address loaded again (the browser's caches kept) → painted`,
      });
    }
  }
}
