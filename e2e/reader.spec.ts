// Reader mode on the detail: the article Readability finds in the archived page, in the app's
// typography, with the preview's guarantees (no script, no request to the live web, the app's link
// policy); "No article found" and the faithful preview where there is none; right-to-left articles;
// settings and the mode itself kept across reloads.
import type { Browser, Page } from '@playwright/test';
import { makeHtml, makeMhtml, makeNoisePng } from '../test/support/archives.ts';
import {
  APP_PAGE,
  appPageBody,
  LONG_ARTICLE,
  longArticleBody,
  RTL_ARTICLE,
  rtlArticleBody,
} from '../test/support/reader-pages.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import type { LiveWeb } from './support/live-web.ts';
import { PREVIEW, recordRequests, requestsOutside } from './support/preview.ts';
import { settled, trackRequests } from './support/settled.ts';

const READER = 'iframe[title^="Reader view of"]';
/** A photo's weight (~36 kB of noise): in an MHTML, Folio's server links it (`part-links.ts`). */
const IMAGE = { width: 120, height: 100 } as const;
const PAGE_URL = 'https://articles.example.org/quiet-archives';

function longArticleFile(ext: 'html' | 'mhtml', live: LiveWeb): Buffer {
  const png = makeNoisePng(IMAGE.width, IMAGE.height);
  if (ext === 'html') {
    // SingleFile: the image inline as a data: URL, the address in the header comment.
    return makeHtml({
      title: LONG_ARTICLE.title,
      singleFileUrl: PAGE_URL,
      body: longArticleBody({
        imageSrc: `data:image/png;base64,${png.toString('base64')}`,
        liveOrigin: live.origin,
      }),
    });
  }
  const imageUrl = 'https://articles.example.org/images/harbour.png';
  const html = makeHtml({
    title: LONG_ARTICLE.title,
    body: longArticleBody({ imageSrc: imageUrl, liveOrigin: live.origin }),
  }).toString('utf8');
  return makeMhtml({
    html,
    url: PAGE_URL,
    resources: [{ url: imageUrl, contentType: 'image/png', body: png }],
  });
}

const readerSwitch = (page: Page) => page.getByRole('button', { name: 'Reader', exact: true });

/** What the reader frame's document shows (read through the same-origin frame). */
function readerState(page: Page) {
  return page.evaluate((selector) => {
    const frame = document.querySelector<HTMLIFrameElement>(selector);
    const doc = frame?.contentDocument;
    const win = frame?.contentWindow;
    if (!frame || !doc?.body || !win) return null;
    const image = doc.querySelector('img');
    const root = win.getComputedStyle(doc.documentElement);
    const main = doc.querySelector('main');
    return {
      sandbox: frame.getAttribute('sandbox'),
      firstHeadChild: doc.head.firstElementChild?.outerHTML ?? '',
      scripts: doc.querySelectorAll('script').length,
      handlers: Array.from(doc.querySelectorAll('*')).flatMap((element) =>
        element.getAttributeNames().filter((name) => name.startsWith('on')),
      ),
      dir: doc.documentElement.getAttribute('dir'),
      computedDirection: win.getComputedStyle(doc.body).direction,
      image: image
        ? {
            src: image.getAttribute('src') ?? '',
            complete: image.complete,
            naturalWidth: image.naturalWidth,
            naturalHeight: image.naturalHeight,
          }
        : null,
      images: doc.querySelectorAll('img').length,
      fontFamily: root.fontFamily,
      fontSize: root.fontSize,
      background: root.backgroundColor,
      mainWidth: main ? main.getBoundingClientRect().width : 0,
      url: doc.URL,
    };
  }, READER);
}

async function extractionMs(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    performance.getEntriesByName('folio:reader-extract').map((entry) => entry.duration),
  );
}

/**
 * axe on the app around the reader (its switch and settings), then on the reader's own document:
 * axe cannot run inside a frame whose sandbox allows no script, so the document is copied into a
 * page of its own (with CSP bypassed, for axe's script only).
 */
async function expectAccessibleReader(page: Page, browser: Browser): Promise<void> {
  expect(
    await seriousViolations(page, [PREVIEW, READER]),
    'axe: the detail in reader mode',
  ).toEqual([]);
  const html = await page.evaluate((selector) => {
    const doc = document.querySelector<HTMLIFrameElement>(selector)?.contentDocument;
    return doc ? `<!DOCTYPE html>${doc.documentElement.outerHTML}` : '';
  }, READER);
  expect(html).toContain('Content-Security-Policy');
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const copy = await context.newPage();
    await copy.setContent(html);
    expect(await seriousViolations(copy), 'axe: the reader document').toEqual([]);
  } finally {
    await context.close();
  }
}

async function openDetail(page: Page, archive: Archive, id: string, search = '') {
  await archive.open(page, `/webpages/${id}${search}`);
  await expect(readerSwitch(page)).toBeVisible();
}

for (const ext of ['html', 'mhtml'] as const) {
  test(`${ext}: a long article in reader mode: header, headings, the archived image, no live request, links through the policy`, async ({
    page,
    context,
    archive,
    liveWeb: live,
  }) => {
    const { id } = await archive.upload(longArticleFile(ext, live), ext);
    const requests = recordRequests(context);
    const tracker = trackRequests(context);
    await openDetail(page, archive, id);
    await expect(page.frameLocator(PREVIEW).getByRole('heading', { level: 1 })).toHaveText(
      LONG_ARTICLE.title,
    );
    await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'false');

    await readerSwitch(page).click();
    await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/[?&]mode=reader/);
    const reader = page.frameLocator(READER);
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText(LONG_ARTICLE.title);
    await expect(reader.getByText(LONG_ARTICLE.byline, { exact: true })).toBeVisible();
    await expect(reader.getByText(/\b\d+ min read$/)).toBeVisible();
    await expect(
      reader.getByRole('heading', { level: 2, name: LONG_ARTICLE.firstHeading }),
    ).toBeVisible();
    await expect(reader.getByText(LONG_ARTICLE.caption)).toBeVisible();
    // The preview frame is gone while the reader is shown.
    await expect(page.locator(PREVIEW)).toHaveCount(0);

    await expect
      .poll(async () => (await readerState(page))?.image, { message: 'the archived image' })
      .toMatchObject({ complete: true, naturalWidth: IMAGE.width, naturalHeight: IMAGE.height });
    const state = (await readerState(page))!;
    // From the archive: inline in the HTML file, by its link to the archive's server in the MHTML.
    expect(state.image?.src).toMatch(
      ext === 'html' ? /^data:image\/png;/ : new RegExp(`^${archive.url}/parts/`),
    );
    expect(state.images, 'the live pixel is not in the reader').toBe(1);
    expect(state.sandbox).toBe('allow-same-origin');
    expect(state.firstHeadChild).toMatch(/^<meta http-equiv="Content-Security-Policy"/);
    expect(state.scripts).toBe(0);
    expect(state.handlers).toEqual([]);

    const measured = await extractionMs(page);
    test.info().annotations.push({
      type: 'reader extraction (ms)',
      description: measured.map((ms) => ms.toFixed(1)).join(', '),
    });
    console.log(`[reader] ${ext} long article extraction: ${measured.join(', ')} ms`);

    // The mode is in the address: a reload keeps it.
    await page.reload();
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText(LONG_ARTICLE.title);
    const again = await extractionMs(page);
    test.info().annotations.push({
      type: 'reader extraction after a reload (ms)',
      description: again.map((ms) => ms.toFixed(1)).join(', '),
    });
    console.log(`[reader] ${ext} long article extraction after a reload: ${again.join(', ')} ms`);

    await settled(page, tracker);
    expect(live.requests, 'requests the live web received').toEqual([]);
    expect(requestsOutside(requests, archive.url), 'requests to other origins').toEqual([]);

    // A link opens in a new tab without opener; the reader stays where it is.
    await context.route(LONG_ARTICLE.linkHref, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>notes</title>' }),
    );
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      reader.getByRole('link', { name: LONG_ARTICLE.linkText }).click(),
    ]);
    await tab.waitForURL(LONG_ARTICLE.linkHref);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect((await readerState(page))?.url).toBe('about:srcdoc');

    // `v` (also from inside the reader) switches back to the faithful preview.
    await reader.locator('body').press('v');
    await expect(page.locator(PREVIEW)).toBeVisible();
    await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(page).not.toHaveURL(/mode=reader/);
  });
}

test('a page without an article: the switch says so and the faithful preview stays', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(
    makeHtml({ title: APP_PAGE.title, body: appPageBody() }),
    'html',
  );
  await openDetail(page, archive, id);
  await readerSwitch(page).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'No article found in this page' }),
  ).toBeVisible();
  await expect(
    page.frameLocator(PREVIEW).getByRole('heading', { name: 'Account settings' }),
  ).toBeVisible();
  await expect(page.locator(READER)).toHaveCount(0);
});

test('a right-to-left article reads right to left; settings and the mode survive a reload; axe finds nothing serious', async ({
  page,
  context,
  browser,
  archive,
  liveWeb: live,
}) => {
  const file = Buffer.from(
    makeHtml({ title: RTL_ARTICLE.title, body: rtlArticleBody() })
      .toString('utf8')
      .replace('<html lang="en">', '<html lang="he" dir="rtl">'),
    'utf8',
  );
  const { id } = await archive.upload(file, 'html');
  const requests = recordRequests(context);
  const tracker = trackRequests(context);
  await openDetail(page, archive, id);
  await readerSwitch(page).click();
  const reader = page.frameLocator(READER);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(RTL_ARTICLE.title);
  const before = (await readerState(page))!;
  expect(before.dir).toBe('rtl');
  expect(before.computedDirection).toBe('rtl');
  await expectAccessibleReader(page, browser);

  const settings = page.getByRole('group', { name: 'Reader settings' });
  await settings.getByLabel('Font').selectOption('sans');
  await settings.getByLabel('Size').selectOption('24');
  await settings.getByLabel('Width').selectOption('narrow');
  await settings.getByLabel('Theme').selectOption('sepia');
  const expected = {
    fontSize: '24px',
    background: 'rgb(244, 236, 216)',
    fontFamily: expect.stringMatching(/sans-serif$/),
  };
  await expect.poll(async () => readerState(page)).toMatchObject(expected);
  const narrow = (await readerState(page))!.mainWidth;
  expect(narrow).toBeLessThan(before.mainWidth);

  // Opened again without `?mode=`: the mode and the settings are this device's.
  await page.goto(`${archive.url}/webpages/${id}`);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(RTL_ARTICLE.title);
  await expect.poll(async () => readerState(page)).toMatchObject(expected);
  await expect(settings.getByLabel('Theme')).toHaveValue('sepia');
  await expect(settings.getByLabel('Size')).toHaveValue('24');

  await settled(page, tracker);
  expect(live.requests).toEqual([]);
  expect(requestsOutside(requests, archive.url)).toEqual([]);
});
