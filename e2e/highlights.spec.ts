// Highlights made in the preview: select text in the archived page (a real mouse drag, or a
// selection made in the frame), highlight it from the toolbar or with `h`, and find it drawn
// again after a reload, listed in the detail's panel, with its note edited there and deleted
// with Undo. The server stores HamsterBase's shape: quote, text before and after, position.
import type { Page } from '@playwright/test';
import { makeHtml, makeMhtml, makeWebarchive } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { drawnHighlights, highlightsPanel, storedHighlights } from './support/highlights.ts';
import { PREVIEW } from './support/preview.ts';
import type { Ext } from './support/seed.ts';

const ARTICLE = (title: string) =>
  `<h1>${title}</h1>
<p id="one">Archived pages keep <em>what matters</em> for later reading.</p>
<p id="two">A second paragraph with <strong>bold words</strong> and more text to mark.</p>
<p id="three">Repeated phrase. Something in between. Repeated phrase at the end.</p>`;

function articleFile(ext: Ext, title: string): Buffer {
  const link = `https://example.org/${encodeURIComponent(title)}`;
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${ARTICLE(title)}</body></html>`;
  if (ext === 'html') return makeHtml({ title, singleFileUrl: link, body: ARTICLE(title) });
  if (ext === 'mhtml') return makeMhtml({ html, url: link });
  return makeWebarchive({ html, url: link });
}

async function openArticle(page: Page, archive: Archive, ext: Ext, title: string) {
  const { id } = await archive.upload(articleFile(ext, title), ext);
  await archive.open(page, `/webpages/${id}`);
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  return id;
}

/**
 * Drags the mouse from the start of `fromSelector`'s text to the end of `toSelector`'s: real mouse
 * input, sent through the DevTools protocol. (Playwright's `page.mouse.move` with the button down
 * waits for its drag detector, which needs a script in the frame: this frame runs none.)
 */
async function dragSelect(page: Page, fromSelector: string, toSelector: string) {
  const frame = page.frameLocator(PREVIEW);
  const from = await frame.locator(fromSelector).boundingBox();
  const to = await frame.locator(toSelector).boundingBox();
  if (!from || !to) throw new Error('nothing to select');
  const cdp = await page.context().newCDPSession(page);
  const mouse = (
    type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
    x: number,
    y: number,
    buttons: number,
  ) => cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons, clickCount: 1 });
  const start = { x: from.x + 1, y: from.y + from.height / 2 };
  const end = { x: to.x + to.width - 1, y: to.y + to.height / 2 };
  await mouse('mouseMoved', start.x, start.y, 0);
  await mouse('mousePressed', start.x, start.y, 1);
  for (let step = 1; step <= 5; step++) {
    const x = start.x + ((end.x - start.x) * step) / 5;
    const y = start.y + ((end.y - start.y) * step) / 5;
    await mouse('mouseMoved', x, y, 1);
  }
  await mouse('mouseReleased', end.x, end.y, 0);
  await cdp.detach();
}

/** Selects `text` (its `occurrence`-th time in the element) inside the frame, as a script could. */
async function selectInFrame(page: Page, selector: string, text: string, occurrence = 0) {
  await page.evaluate(
    ({ frameSelector, selector, text, occurrence }) => {
      const frame = document.querySelector<HTMLIFrameElement>(frameSelector)!;
      const doc = frame.contentDocument!;
      const node = doc.querySelector(selector)!.firstChild as Text;
      let at = -1;
      for (let seen = 0; seen <= occurrence; seen++) at = node.data.indexOf(text, at + 1);
      const range = doc.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const selection = doc.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    },
    { frameSelector: PREVIEW, selector, text, occurrence },
  );
}

const panel = highlightsPanel;
const drawn = (page: Page) => drawnHighlights(page, PREVIEW);

test('html: select across elements with the mouse, highlight, reload, edit the note, delete with Undo, delete for good', async ({
  page,
  archive,
}) => {
  const id = await openArticle(page, archive, 'html', 'Highlight journey');

  await dragSelect(page, 'em', 'strong');
  const toolbar = page.getByRole('toolbar', { name: 'Selected text' });
  await expect(toolbar).toBeVisible();
  await toolbar.getByRole('button', { name: 'Highlight', exact: true }).click();
  await expect(toolbar).toBeHidden();

  const quote = /^what matters for later reading\.\s+A second paragraph with bold words$/;
  await expect.poll(() => drawn(page)).toEqual([expect.stringMatching(quote)]);
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (1)');
  await expect(panel(page).locator('.highlight-panel__quote')).toHaveText(quote);

  // Stored as HamsterBase stores it.
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(1);
  const [stored] = await storedHighlights(archive, id);
  expect(stored).toMatchObject({
    type: 1,
    text: expect.stringMatching(quote),
    marker: {
      meta: {
        textBefore: expect.stringMatching(/Archived pages keep $/),
        textAfter: expect.stringMatching(/^ and more text/),
      },
    },
  });
  expect(stored!.tenThousandth).toBeGreaterThan(0);
  expect(stored!.tenThousandth).toBeLessThan(10_000);

  // Still drawn after a reload.
  await page.reload();
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  await expect.poll(() => drawn(page)).toEqual([expect.stringMatching(quote)]);

  // The note, edited inline.
  await panel(page)
    .getByRole('button', { name: /^Add note:/ })
    .click();
  await panel(page).getByRole('textbox', { name: 'Note' }).fill('Worth keeping');
  await panel(page).getByRole('button', { name: 'Save note' }).click();
  await expect(panel(page).getByText('Worth keeping')).toBeVisible();
  await expect
    .poll(async () => (await storedHighlights(archive, id))[0]?.note)
    .toBe('Worth keeping');

  // Delete, then Undo: back in the panel and in the page, and never deleted on the server.
  await panel(page)
    .getByRole('button', { name: /^Delete highlight:/ })
    .click();
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (0)');
  await expect.poll(() => drawn(page)).toEqual([]);
  await page.getByRole('button', { name: 'Undo: Deleted the highlight' }).click();
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (1)');
  await expect.poll(() => drawn(page)).toEqual([expect.stringMatching(quote)]);
  await expect(page.getByText('Restored the highlight')).toBeVisible();
  expect(await storedHighlights(archive, id)).toHaveLength(1);

  // Delete for good: gone from the server once the undo window closed.
  await panel(page)
    .getByRole('button', { name: /^Delete highlight:/ })
    .click();
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (0)');
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(0);
  await page.reload();
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  await expect(panel(page).getByText(/^No highlights/)).toBeVisible();
  expect(await drawn(page)).toEqual([]);
});

for (const ext of ['mhtml', 'webarchive'] as const) {
  test(`${ext}: a highlight made with a note is drawn, stored and drawn again after a reload`, async ({
    page,
    archive,
  }) => {
    const id = await openArticle(page, archive, ext, `Highlight ${ext}`);
    await dragSelect(page, 'em', 'strong');
    const toolbar = page.getByRole('toolbar', { name: 'Selected text' });
    await toolbar.getByRole('button', { name: 'Highlight with note' }).click();
    const form = page.getByRole('form', { name: 'Highlight with note' });
    await form.getByRole('textbox', { name: 'Note' }).fill(`Noted in ${ext}`);
    await form.getByRole('button', { name: 'Save highlight' }).click();

    const quote = /^what matters for later reading\.\s+A second paragraph with bold words$/;
    await expect.poll(() => drawn(page)).toEqual([expect.stringMatching(quote)]);
    await expect(panel(page).getByText(`Noted in ${ext}`)).toBeVisible();
    await expect
      .poll(async () => (await storedHighlights(archive, id))[0]?.note)
      .toBe(`Noted in ${ext}`);

    await page.reload();
    await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
    await expect.poll(() => drawn(page)).toEqual([expect.stringMatching(quote)]);
  });
}

test('the h key highlights the selection, n asks for a note first; the repeated phrase chosen is the one drawn, in page order', async ({
  page,
  archive,
}) => {
  const id = await openArticle(page, archive, 'html', 'Highlight keys');
  // The second "Repeated phrase" of the paragraph, then a phrase earlier in the page.
  await selectInFrame(page, '#three', 'Repeated phrase', 1);
  await expect(page.getByRole('toolbar', { name: 'Selected text' })).toBeVisible();
  // Typed while the page has the focus: the frame hands the key to the app.
  await page.frameLocator(PREVIEW).locator('#three').press('h');
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(1);
  const [repeated] = await storedHighlights(archive, id);
  expect(repeated!.marker.meta.textBefore).toMatch(/Something in between\. $/);

  await selectInFrame(page, '#one', 'Archived pages');
  await expect(page.getByRole('toolbar', { name: 'Selected text' })).toBeVisible();
  await page.keyboard.press('h');
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(2);

  // `n` asks for a note first.
  await selectInFrame(page, '#two strong', 'bold words');
  await expect(page.getByRole('toolbar', { name: 'Selected text' })).toBeVisible();
  await page.frameLocator(PREVIEW).locator('#two').press('n');
  const form = page.getByRole('form', { name: 'Highlight with note' });
  await expect(form.getByRole('textbox', { name: 'Note' })).toBeFocused();
  await page.keyboard.type('typed after n');
  await form.getByRole('button', { name: 'Save highlight' }).click();
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(3);
  expect((await storedHighlights(archive, id))[2]).toMatchObject({
    text: 'bold words',
    note: 'typed after n',
  });

  await page.reload();
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  await expect.poll(() => drawn(page)).toEqual(['Archived pages', 'bold words', 'Repeated phrase']);
  // The drawn one is the second occurrence (its context says so).
  const second = await page.evaluate((selector) => {
    const frame = document.querySelector<HTMLIFrameElement>(selector)!;
    const registry = (frame.contentWindow as Window & typeof globalThis).CSS.highlights;
    const ranges = [...(registry.get('folio-highlight') as unknown as Set<Range>)];
    return ranges.map((range) => range.startOffset);
  }, PREVIEW);
  expect(second).toContain('Repeated phrase. Something in between. '.length);
  await expect(panel(page).locator('.highlight-panel__quote')).toHaveText([
    'Archived pages',
    'bold words',
    'Repeated phrase',
  ]);
});

test('highlights made elsewhere (HamsterBase) are drawn; a missing one is listed as not found; ?highlight= flashes one', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(articleFile('webarchive', 'Made elsewhere'), 'webarchive');
  const made = await archive.api<string>('POST', `/webpages/${id}/highlights`, {
    // As HamsterBase's app sends it: its own whitespace, its own context.
    text: 'bold words and more',
    textBefore: 'A second paragraph with ',
    textAfter: ' text to mark.',
    tenThousandth: 4000,
  });
  await archive.api('POST', `/webpages/${id}/highlights`, {
    text: 'A sentence that is not in this page',
    textBefore: '',
    textAfter: '',
    note: 'kept anyway',
  });

  await archive.open(page, `/webpages/${id}?highlight=${encodeURIComponent(made)}`);
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  await expect.poll(() => drawn(page)).toEqual(['bold words and more']);
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (2)');
  await expect(panel(page).getByText('Not found in the page')).toBeVisible();
  await expect(panel(page).getByText('kept anyway')).toBeVisible();
  // The link's highlight flashed (an emphasis that goes away by itself).
  await expect
    .poll(() =>
      page.evaluate((selector) => {
        const frame = document.querySelector<HTMLIFrameElement>(selector)!;
        return (frame.contentWindow as Window & typeof globalThis).CSS.highlights.has(
          'folio-highlight-flash',
        );
      }, PREVIEW),
    )
    .toBe(true);
});

test('a highlight the server refuses is taken back and the reason shown', async ({
  page,
  archive,
}) => {
  const id = await openArticle(page, archive, 'html', 'Refused highlight');
  // The page is deleted behind the app's back: the create answers 404.
  await archive.api('DELETE', `/webpages/${id}`);
  await selectInFrame(page, '#one', 'Archived pages');
  await page
    .getByRole('toolbar', { name: 'Selected text' })
    .getByRole('button', {
      name: 'Highlight',
      exact: true,
    })
    .click();
  await expect(page.getByText(/^Could not save the highlight:/)).toBeVisible();
  await expect(panel(page).getByRole('heading')).toHaveText('Highlights (0)');
  await expect.poll(() => drawn(page)).toEqual([]);
});

test('the full-window preview draws the highlights and makes new ones', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(articleFile('mhtml', 'Full window'), 'mhtml');
  await archive.api('POST', `/webpages/${id}/highlights`, {
    text: 'what matters',
    textBefore: 'Archived pages keep ',
    textAfter: ' for later reading.',
  });
  await archive.open(page, `/webpages/${id}/preview`);
  await expect(page.frameLocator(PREVIEW).locator('#two')).toBeVisible();
  await expect.poll(() => drawn(page)).toEqual(['what matters']);
  await selectInFrame(page, '#two strong', 'bold words');
  await expect(page.getByRole('toolbar', { name: 'Selected text' })).toBeVisible();
  await page.keyboard.press('h');
  await expect.poll(() => drawn(page)).toEqual(['what matters', 'bold words']);
  await expect.poll(async () => (await storedHighlights(archive, id)).length).toBe(2);
});
