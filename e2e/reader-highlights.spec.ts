// Highlights in reader mode: the reader frame is one more same-origin document the highlight layer
// draws on. A highlight made in the faithful preview is drawn in the reader; one made in the
// reader (mouse or script selection, the toolbar or `h` / `n` typed in the reader) is stored as
// any other and drawn in the faithful preview, after switching back and after a reload; the
// selection toolbar sits over the reader frame, inside the window.
import type { Page } from '@playwright/test';
import { makeHtml, makePng } from '../test/support/archives.ts';
import { LONG_ARTICLE, longArticleBody } from '../test/support/reader-pages.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { drawnHighlights, highlightsPanel, storedHighlights } from './support/highlights.ts';
import { PREVIEW } from './support/preview.ts';

const READER = 'iframe[title^="Reader view of"]';

function longArticle(): Buffer {
  const png = makePng(40, 30, [0, 120, 255]);
  return makeHtml({
    title: LONG_ARTICLE.title,
    singleFileUrl: 'https://articles.example.org/quiet-archives',
    body: longArticleBody({
      imageSrc: `data:image/png;base64,${png.toString('base64')}`,
      // Never reached: the CSP and the sanitiser keep the page off the network.
      liveOrigin: 'http://127.0.0.1:9',
    }),
  });
}

const readerSwitch = (page: Page) => page.getByRole('button', { name: 'Reader', exact: true });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected text' });
const panel = highlightsPanel;
const drawn = drawnHighlights;

async function openLongArticle(page: Page, archive: Archive): Promise<string> {
  const { id } = await archive.upload(longArticle(), 'html');
  await archive.open(page, `/webpages/${id}`);
  await expect(page.frameLocator(PREVIEW).getByRole('heading', { level: 1 })).toHaveText(
    LONG_ARTICLE.title,
  );
  return id;
}

async function switchToReader(page: Page) {
  await readerSwitch(page).click();
  await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.frameLocator(READER).getByRole('heading', { level: 1 })).toHaveText(
    LONG_ARTICLE.title,
  );
}

async function switchToPreview(page: Page) {
  await readerSwitch(page).click();
  await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.frameLocator(PREVIEW).getByRole('heading', { level: 1 })).toHaveText(
    LONG_ARTICLE.title,
  );
}

/** Whether the frame's first drawn highlight is inside its viewport. */
function drawnInView(page: Page, frameSelector: string): Promise<boolean> {
  return page.evaluate((selector) => {
    const frame = document.querySelector<HTMLIFrameElement>(selector);
    const view = frame?.contentWindow as (Window & typeof globalThis) | null;
    const highlight = view?.CSS.highlights.get('folio-highlight');
    const [range] = highlight ? [...(highlight as unknown as Set<Range>)] : [];
    if (!view || !range) return false;
    const box = range.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= view.innerHeight;
  }, frameSelector);
}

/** How many `::highlight()` style elements the layer put in the frame's document. */
function highlightStyles(page: Page, frameSelector: string): Promise<number> {
  return page.evaluate(
    (selector) =>
      document
        .querySelector<HTMLIFrameElement>(selector)
        ?.contentDocument?.querySelectorAll('style[data-folio="highlights"]').length ?? -1,
    frameSelector,
  );
}

/**
 * At least `length` characters from `from` into the text of the article's `nth` paragraph (the
 * byline not counted), as the faithful preview shows it, and as many more words as it takes to be
 * found once in the page (the fixture's paragraphs are made of few words, and repeat every 27:
 * those from 9 to 26 are the article's only copies). The same words are in the reader.
 */
function paragraphSlice(page: Page, nth: number, from: number, length: number): Promise<string> {
  return page.evaluate(
    ({ selector, nth, from, length }) => {
      const doc = document.querySelector<HTMLIFrameElement>(selector)!.contentDocument!;
      const paragraph = doc.querySelectorAll('article > p:not(.byline)')[nth]!;
      const text = paragraph.firstChild!.textContent!;
      const page = doc.body.textContent!;
      // Longer, a word at a time, until the page has it once.
      for (let end = from + length; end <= text.length; end = text.indexOf(' ', end + 1)) {
        const slice = text.slice(from, end).trim();
        if (page.indexOf(slice) === page.lastIndexOf(slice)) return slice;
        if (end < 0) break;
      }
      throw new Error(`paragraph ${nth} has no unique slice from ${from}`);
    },
    { selector: PREVIEW, nth, from, length },
  );
}

/**
 * Where `text` is in the frame (it must be there once, inside one text node): scrolled into view,
 * its first and last characters' middles in the app window's coordinates, and, when `select`,
 * selected as a script could.
 */
async function locateText(page: Page, frameSelector: string, text: string, select: boolean) {
  return page.evaluate(
    ({ frameSelector, text, select }) => {
      const frame = document.querySelector<HTMLIFrameElement>(frameSelector)!;
      const doc = frame.contentDocument!;
      const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
      const hits: { node: Text; at: number }[] = [];
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text) {
        for (let at = node.data.indexOf(text); at >= 0; at = node.data.indexOf(text, at + 1)) {
          hits.push({ node, at });
        }
      }
      if (hits.length !== 1) throw new Error(`"${text}" is in the frame ${hits.length} times`);
      const { node, at } = hits[0]!;
      node.parentElement!.scrollIntoView({ block: 'center' });
      const range = doc.createRange();
      const frameBox = frame.getBoundingClientRect();
      const point = (offset: number) => {
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        const box = range.getBoundingClientRect();
        return {
          x: frameBox.left + frame.clientLeft + box.left + box.width / 2,
          y: frameBox.top + frame.clientTop + box.top + box.height / 2,
        };
      };
      const start = point(at);
      const last = point(at + text.length - 1);
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const box = range.getBoundingClientRect();
      if (select) {
        const selection = doc.getSelection()!;
        selection.removeAllRanges();
        selection.addRange(range);
      }
      return {
        start,
        last,
        rect: {
          top: frameBox.top + frame.clientTop + box.top,
          bottom: frameBox.top + frame.clientTop + box.bottom,
        },
      };
    },
    { frameSelector, text, select },
  );
}

/**
 * Drags the mouse over `text` in the frame: real mouse input through the DevTools protocol (the
 * frame runs no script, so Playwright's drag detector cannot run there).
 */
async function dragSelect(page: Page, frameSelector: string, text: string) {
  const { start, last, rect } = await locateText(page, frameSelector, text, false);
  const cdp = await page.context().newCDPSession(page);
  const mouse = (
    type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
    x: number,
    y: number,
    buttons: number,
  ) => cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons, clickCount: 1 });
  // From the left edge of the first character to the right edge of the last one.
  const from = { x: start.x - 2, y: start.y };
  const to = { x: last.x + 2, y: last.y };
  await mouse('mouseMoved', from.x, from.y, 0);
  await mouse('mousePressed', from.x, from.y, 1);
  for (let step = 1; step <= 5; step++) {
    await mouse(
      'mouseMoved',
      from.x + ((to.x - from.x) * step) / 5,
      from.y + ((to.y - from.y) * step) / 5,
      1,
    );
  }
  await mouse('mouseReleased', to.x, to.y, 0);
  await cdp.detach();
  return rect;
}

test('a highlight made in the faithful preview is drawn in the reader, listed as found, and again in the preview after switching back', async ({
  page,
  archive,
}) => {
  const id = await openLongArticle(page, archive);
  const quote = await paragraphSlice(page, 12, 0, 40);
  await locateText(page, PREVIEW, quote, true);
  await expect(toolbar(page)).toBeVisible();
  await toolbar(page).getByRole('button', { name: 'Highlight', exact: true }).click();
  await expect.poll(() => drawn(page, PREVIEW)).toEqual([quote]);
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(1);

  await switchToReader(page);
  await expect.poll(() => drawn(page, READER)).toEqual([quote]);
  expect(await highlightStyles(page, READER)).toBe(1);
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (1)');
  await expect(panel(page).locator('.highlight-panel__quote')).toHaveText([quote]);
  await expect(panel(page).getByText('Not found in the page')).toHaveCount(0);

  // The panel scrolls the reader to it (far down the article: out of sight until then).
  expect(await drawnInView(page, READER)).toBe(false);
  await panel(page).locator('.highlight-panel__quote').click();
  await expect.poll(() => drawnInView(page, READER)).toBe(true);

  await switchToPreview(page);
  await expect.poll(() => drawn(page, PREVIEW)).toEqual([quote]);
  expect(await highlightStyles(page, PREVIEW)).toBe(1);
  await expect(panel(page).getByText('Not found in the page')).toHaveCount(0);
});

test('text selected in the reader is highlighted with h (and with a note after n), stored, and drawn in the preview after switching back and after a reload', async ({
  page,
  archive,
}) => {
  const id = await openLongArticle(page, archive);
  const first = await paragraphSlice(page, 10, 0, 36);
  const second = await paragraphSlice(page, 16, 12, 30);
  await switchToReader(page);
  const reader = page.frameLocator(READER);

  // The reader's header is the app's text, not the page's: nothing there to highlight.
  await locateText(page, READER, first, true);
  await expect(toolbar(page)).toBeVisible();
  await locateText(page, READER, 'min read', true);
  await expect(toolbar(page)).toBeHidden();

  await locateText(page, READER, first, true);
  await expect(toolbar(page)).toBeVisible();
  // Typed while the reader has the focus: the reader frame hands the key to the app.
  await reader.locator('body').press('h');
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(1);
  await expect.poll(() => drawn(page, READER)).toEqual([first]);
  const [stored] = await storedHighlights(archive, id);
  expect(stored).toMatchObject({ text: first });
  expect(stored!.marker.meta.textAfter.length).toBeGreaterThan(0);
  await expect(readerSwitch(page)).toHaveAttribute('aria-pressed', 'true');

  await locateText(page, READER, second, true);
  await expect(toolbar(page)).toBeVisible();
  await reader.locator('body').press('n');
  const form = page.getByRole('form', { name: 'Highlight with note' });
  await expect(form.getByRole('textbox', { name: 'Note' })).toBeFocused();
  await page.keyboard.type('noted in the reader');
  await form.getByRole('button', { name: 'Save highlight' }).click();
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(2);
  await expect.poll(() => drawn(page, READER)).toEqual([first, second]);
  expect((await storedHighlights(archive, id))[1]).toMatchObject({
    text: second,
    note: 'noted in the reader',
  });

  await switchToPreview(page);
  await expect.poll(() => drawn(page, PREVIEW)).toEqual([first, second]);
  await expect(panel(page).locator('.highlight-panel__quote')).toHaveText([first, second]);
  await expect(panel(page).getByText('Not found in the page')).toHaveCount(0);

  await page.reload();
  await expect(page.frameLocator(PREVIEW).getByRole('heading', { level: 1 })).toHaveText(
    LONG_ARTICLE.title,
  );
  await expect.poll(() => drawn(page, PREVIEW)).toEqual([first, second]);

  // And in the reader again, opened by its address.
  await page.goto(`${archive.url}/webpages/${id}?mode=reader`);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(LONG_ARTICLE.title);
  await expect.poll(() => drawn(page, READER)).toEqual([first, second]);
});

test('the selection toolbar sits over a mouse selection in the reader, inside the window, and its Highlight button highlights it', async ({
  page,
  archive,
}) => {
  const id = await openLongArticle(page, archive);
  // Far down the long article: the reader frame is scrolled to it.
  const quote = await paragraphSlice(page, 20, 0, 30);
  await switchToReader(page);

  const selected = await dragSelect(page, READER, quote);
  await expect(toolbar(page)).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(
        (selector) =>
          document
            .querySelector<HTMLIFrameElement>(selector)!
            .contentDocument!.getSelection()!
            .toString(),
        READER,
      ),
    )
    .toBe(quote);

  const box = (await toolbar(page).boundingBox())!;
  const frame = (await page.locator(READER).boundingBox())!;
  const viewport = page.viewportSize()!;
  // Inside the window and over the reader frame.
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(box.y).toBeGreaterThanOrEqual(frame.y);
  expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
  expect(box.x + box.width).toBeGreaterThan(frame.x);
  expect(box.x).toBeLessThan(frame.x + frame.width);
  // Next to the selection: just above it, or just below it.
  const above = selected.top - (box.y + box.height);
  const below = box.y - selected.bottom;
  expect(
    (above >= 0 && above <= 24) || (below >= 0 && below <= 24),
    `toolbar ${JSON.stringify(box)} next to the selection ${JSON.stringify(selected)}`,
  ).toBe(true);

  await toolbar(page).getByRole('button', { name: 'Highlight', exact: true }).click();
  await expect(toolbar(page)).toBeHidden();
  await expect.poll(() => drawn(page, READER)).toEqual([quote]);
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(1);
  expect((await storedHighlights(archive, id))[0]!.text).toBe(quote);
});
