// The preview of each format, faithful and safe: an HTML page (SingleFile-like), an MHTML captured by
// Chromium itself and a Safari webarchive, each with an image and a stylesheet the preview must show
// and scripts, a handler and live-web references it must neither run nor fetch.
import type { Browser, Page, Worker } from '@playwright/test';
import { makeHtml, makeMhtml } from '../test/support/archives.ts';
import { expect, test } from './support/fixtures.ts';
import { drawnHighlights } from './support/highlights.ts';
import type { LiveWeb } from './support/live-web.ts';
import {
  PREVIEW,
  previewState,
  recordFileAnswers,
  recordRequests,
  requestsOutside,
} from './support/preview.ts';
import { settled, trackRequests } from './support/settled.ts';
import {
  RICH,
  richHtml,
  richMhtml,
  richWebarchive,
  type CapturedPage,
  type Ext,
  type RichPage,
} from './support/sample-pages.ts';

const EXTS: readonly Ext[] = ['html', 'mhtml', 'webarchive'];

async function makePage(
  ext: Ext,
  browser: Browser,
  title: string,
  live: LiveWeb,
): Promise<RichPage | CapturedPage> {
  if (ext === 'html') return richHtml(title, live.origin);
  if (ext === 'webarchive') return richWebarchive(title, live.origin);
  return richMhtml(browser, title, live.origin);
}

/** The preview shows the page's text, its own image and styles; nothing of it ran. */
async function expectFaithfulPreview(page: Page, rich: RichPage, live: LiveWeb): Promise<void> {
  const frame = page.frameLocator(PREVIEW);
  await expect(page.getByTitle(`Preview of ${rich.title}`, { exact: true })).toBeVisible();
  await expect(frame.getByText(rich.marker, { exact: true })).toBeVisible();
  await expect(frame.getByRole('heading', { name: rich.title })).toBeVisible();

  const liveHost = new URL(live.origin).host;
  // The image comes from the archive and decodes at its real size.
  await expect
    .poll(async () => (await previewState(page, liveHost)).photo, { message: 'the image' })
    .toMatchObject({
      complete: true,
      naturalWidth: RICH.photo.width,
      naturalHeight: RICH.photo.height,
    });
  const state = await previewState(page, liveHost);
  expect(state.photo?.src, 'the image is served from the archive').toMatch(/^(blob|data):/);
  // The page's stylesheet applies.
  expect(state.headlineColor).toBe(RICH.headlineColor);
  expect(state.markerBorder).toBe(RICH.markerBorder);
  // Nothing ran: the script and the handler would have changed this text and the titles.
  expect(state.scriptTarget).toBe(RICH.quiet);
  expect(state.title).not.toMatch(/RAN/);
  expect(state.pwned).toBeUndefined();
  expect(state.liveScriptRan).toBeUndefined();
  // What the archive does not hold is dropped, not left for the browser to fetch.
  expect(state.liveReferences).toEqual([]);
  expect(state.sandbox?.split(/\s+/)).not.toContain('allow-scripts');
  await expect(page).not.toHaveTitle(/RAN/);
}

for (const ext of EXTS) {
  test(`${ext}: the preview shows the text, image and styles; no script runs, no request leaves`, async ({
    page,
    context,
    browser,
    archive,
    liveWeb: live,
  }) => {
    const title = `Rich ${ext} page`;
    const rich = await makePage(ext, browser, title, live);
    try {
      const { id } = await archive.upload(rich.file, ext);
      const requests = recordRequests(context);
      const tracker = trackRequests(context);
      // What the preview read: an MHTML page with its parts in binary and its large ones as
      // links, any other the file itself.
      const sent = recordFileAnswers(context, id);

      // From the list to the page's details, where the preview is.
      await archive.open(page, '/');
      await page.getByRole('link', { name: title, exact: true }).click();
      await expect(page).toHaveURL(`${archive.url}/webpages/${id}`);
      await expectFaithfulPreview(page, rich, live);
      await expect(page).toHaveTitle(`${title} · Folio`);
      expect(sent).toEqual([
        ext === 'mhtml' ? 'application/vnd.folio.linked-mhtml' : 'application/octet-stream',
      ]);
      if (ext === 'mhtml') {
        // Chromium's capture of the large image comes by its link, from the archive's server.
        const poster = page.frameLocator(PREVIEW).locator('#poster');
        await expect
          .poll(() =>
            poster.evaluate((image: HTMLImageElement) => [image.complete, image.naturalWidth]),
          )
          .toEqual([true, RICH.poster.width]);
        expect(await poster.getAttribute('src')).toMatch(
          new RegExp(`^${archive.url}/parts/${id}/\\d+/\\d+/base64/\\d+/image/png/[\\w-]{43}$`),
        );
      }

      await settled(page, tracker);
      expect(live.requests, 'requests the live web received').toEqual([]);
      if ('site' in rich)
        expect(rich.site.requests, 'requests the captured site received').toEqual([]);
      expect(requestsOutside(requests, archive.url), 'requests to other origins').toEqual([]);
    } finally {
      if ('site' in rich) await rich.site.close();
    }
  });
}

test('the full-window preview shows each format alone, and leads back to the details', async ({
  page,
  context,
  browser,
  archive,
  liveWeb: live,
}) => {
  const pages = [
    richHtml('Full window HTML', live.origin),
    await richMhtml(browser, 'Full window MHTML', live.origin),
    richWebarchive('Full window webarchive', live.origin),
  ];
  try {
    const ids = await Promise.all(pages.map((rich) => archive.upload(rich.file, rich.ext)));
    const requests = recordRequests(context);
    const tracker = trackRequests(context);

    // From the details, through the app's own link.
    const first = ids[0]!.id;
    await archive.open(page, `/webpages/${first}`);
    await page.getByRole('link', { name: 'Full window' }).click();
    await expect(page).toHaveURL(`${archive.url}/webpages/${first}/preview`);
    await expect(page.getByRole('heading', { name: pages[0]!.title })).toBeVisible();
    await expectFaithfulPreview(page, pages[0]!, live);
    // The frame fills the window rather than a box inside the details.
    const box = await page.locator(PREVIEW).boundingBox();
    expect(box?.width).toBeGreaterThan(1200);
    expect(box?.height).toBeGreaterThan(700);

    await page.getByRole('link', { name: /details/i }).click();
    await expect(page).toHaveURL(`${archive.url}/webpages/${first}`);
    await expect(page.getByRole('heading', { name: pages[0]!.title, level: 1 })).toBeVisible();

    // Opened directly (a bookmark, a new tab) for the other formats.
    for (const [index, rich] of pages.entries()) {
      if (index === 0) continue;
      await page.goto(`${archive.url}/webpages/${ids[index]!.id}/preview`);
      await expect(page.getByRole('heading', { name: rich.title })).toBeVisible();
      await expectFaithfulPreview(page, rich, live);
    }

    await settled(page, tracker);
    expect(live.requests, 'requests the live web received').toEqual([]);
    const site = (pages[1] as CapturedPage).site;
    expect(site.requests, 'requests the captured site received').toEqual([]);
    expect(requestsOutside(requests, archive.url), 'requests to other origins').toEqual([]);
  } finally {
    await (pages[1] as CapturedPage).site.close();
  }
});

test('the detail’s code and the preview’s worker load while the library is idle: the click fetches no script and the build runs in that worker; the next page’s worker starts once the page is shown', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(
    makeHtml({ title: 'A warm page', body: '<p>WARM-CONTENT</p>' }),
    'html',
  );
  const scripts: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
  });
  // The preview's workers, in the order they started, and whether each has ended.
  const workers: { worker: Worker; closed: boolean }[] = [];
  page.on('worker', (worker) => {
    if (!/\/preview\.worker-[\w-]+\.js$/.test(new URL(worker.url()).pathname)) return;
    const entry = { worker, closed: false };
    worker.on('close', () => (entry.closed = true));
    workers.push(entry);
  });
  await archive.open(page, '/');
  const row = page.getByRole('link', { name: 'A warm page' });
  await expect(row).toBeVisible();
  // No pointer on a row, no key pressed: the browser being idle is enough.
  for (const chunk of [/\/webpage-route-[\w-]+\.js$/, /\/preview-frame-[\w-]+\.js$/]) {
    await expect.poll(() => scripts.some((path) => chunk.test(path)), String(chunk)).toBe(true);
  }
  await expect.poll(() => workers.length, 'preview workers started while idle').toBe(1);
  const before = scripts.length;
  // A click with no pointer resting on a link, before or after (no intent starts a worker): the
  // next page's worker below is the one started once this page is shown.
  await row.dispatchEvent('click');
  await expect(page).toHaveURL(new RegExp(`/webpages/${id}$`));
  await expect(page.frameLocator(PREVIEW).getByText('WARM-CONTENT', { exact: true })).toBeVisible();
  // The worker started while idle built this page, and was ended with its answer (one started at
  // the click instead would have left it waiting).
  await expect.poll(() => workers[0]!.closed, 'the first worker ended').toBe(true);
  // The next page's worker waits.
  await expect.poll(() => workers.length, 'preview workers started').toBe(2);
  expect(workers[1]!.closed).toBe(false);
  expect(scripts.slice(before).filter((path) => !/\/preview\.worker-/.test(path))).toEqual([]);
});

test('a long page is shown from its top while the rest is added; links, frames and highlights work to its end', async ({
  page,
  context,
  archive,
  liveWeb: live,
}) => {
  const POSTS = 900;
  const posts = Array.from(
    { length: POSTS },
    (_, n) =>
      `<article id="post-${n}"><h2>Reply ${n}</h2><p>Posted by <a href="${live.origin}/u/${n}">user ${n}</a>` +
      ` with <em>some</em> text.</p><ul><li>one</li><li>two</li></ul></article>`,
  ).join('\n');
  // As Chromium saves it: the thread's last post embeds a frame with a link of its own.
  const file = makeMhtml({
    url: 'https://forum.example/t/1',
    html:
      '<!DOCTYPE html><html><head><title>A long thread</title></head><body>' +
      `<div id="app"><main>${posts}</main>` +
      '<footer><p>The end of the thread</p><iframe src="cid:frame-2@mhtml.blink"></iframe></footer>' +
      '</div></body></html>',
    resources: [
      {
        url: 'https://widgets.example/share.html',
        contentId: 'frame-2@mhtml.blink',
        contentType: 'text/html',
        body: `<p><a href="${live.origin}/from-the-frame">Shared from the frame</a></p>`,
      },
    ],
  });
  const { id } = await archive.upload(file, 'mhtml');
  const last = POSTS - 1;
  await archive.api('POST', `/webpages/${id}/highlights`, {
    text: `user ${last} with some`,
    textBefore: 'Posted by ',
    textAfter: ' text.',
  });
  await archive.open(page, `/webpages/${id}`);
  const frame = page.frameLocator(PREVIEW);
  await expect(frame.getByRole('heading', { name: 'Reply 0', exact: true })).toBeVisible();
  // The frame loaded the top of the page; the rest was added to it afterwards.
  const loaded = (await page.locator(PREVIEW).getAttribute('srcdoc')) ?? '';
  expect(loaded).toContain('id="post-0"');
  expect(loaded).not.toContain(`id="post-${last}"`);

  await expect(page.locator(PREVIEW)).not.toHaveAttribute('aria-busy', 'true', {
    timeout: 30_000,
  });
  // Whole and in order, the footer after the thread, no marker left.
  const shown = await page.evaluate((selector) => {
    const doc = document.querySelector<HTMLIFrameElement>(selector)!.contentDocument!;
    return {
      ids: [...doc.querySelectorAll('main > article')].map((article) => article.id),
      footerAfterMain: doc.querySelector('main + footer > p')?.textContent ?? null,
      markers: doc.querySelectorAll('[data-folio-part]').length,
    };
  }, PREVIEW);
  expect(shown.ids).toEqual(Array.from({ length: POSTS }, (_, n) => `post-${n}`));
  expect(shown.footerAfterMain).toBe('The end of the thread');
  expect(shown.markers).toBe(0);
  // The highlight in the last post, added last, is found and drawn.
  await expect.poll(() => drawnHighlights(page, PREVIEW)).toEqual([`user ${last} with some`]);

  // A link in the last post opens in a new tab, as one in the first part does.
  const [tab] = await Promise.all([
    context.waitForEvent('page', { timeout: 10_000 }),
    frame.getByRole('link', { name: `user ${last}`, exact: true }).click(),
  ]);
  await tab.waitForLoadState('domcontentloaded');
  expect(tab.url()).toBe(`${live.origin}/u/${last}`);
  await tab.close();
  // So does one in the frame that came with the last part: it was protected when it arrived.
  const [fromFrame] = await Promise.all([
    context.waitForEvent('page', { timeout: 10_000 }),
    frame
      .frameLocator('footer iframe')
      .getByRole('link', { name: 'Shared from the frame' })
      .click(),
  ]);
  await fromFrame.waitForLoadState('domcontentloaded');
  expect(fromFrame.url()).toBe(`${live.origin}/from-the-frame`);
  await fromFrame.close();
  expect(page.url()).toBe(`${archive.url}/webpages/${id}`);
  const urls = await page.evaluate((selector) => {
    const doc = document.querySelector<HTMLIFrameElement>(selector)?.contentDocument;
    return [doc?.URL, doc?.querySelector('iframe')?.contentDocument?.URL];
  }, PREVIEW);
  expect(urls).toEqual(['about:srcdoc', 'about:srcdoc']);
});
