// Reading a saved page at phone, tablet and desktop widths: the page fills the window below the
// detail's header on a desktop and can be widened by collapsing the side panel (remembered across
// reloads); on a phone the page comes first, full width, and the details stay reachable by
// scrolling past it. The full window keeps Like, Mark as read, Previous / Next and the keys.
import type { Locator, Page } from '@playwright/test';
import { makeHtml } from '../test/support/archives.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { expect, test, type Archive } from './support/fixtures.ts';
import { seed, type SeedPage } from './support/seed.ts';

const FRAME = 'iframe[title^="Preview of"]';

/** A long page: it scrolls inside the frame, as real articles do. */
function longPage(title: string): Buffer {
  const paragraphs = Array.from(
    { length: 80 },
    (_, i) => `<p>Paragraph ${i + 1} of “${title}”, long enough to wrap on a phone’s screen.</p>`,
  ).join('\n');
  return makeHtml({
    title,
    description: `About ${title}.`,
    body: `<h1>${title}</h1>\n${paragraphs}`,
    singleFileUrl: `https://reading.example/${encodeURIComponent(title)}`,
  });
}

async function openDetail(page: Page, archive: Archive, title: string) {
  const { id } = await archive.upload(longPage(title), 'html');
  await archive.open(page, `/webpages/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const frame = page.locator(FRAME);
  await expect(frame).toBeVisible();
  // The archived page is in the frame (not the "Preparing" status).
  await expect(page.frameLocator(FRAME).getByText('Paragraph 1 of')).toBeVisible();
  return { id, frame };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not rendered');
  return found;
}

test.describe('at 1440 × 900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the page fills the window below the header; collapsing the side panel widens it and is remembered', async ({
    page,
    archive,
  }) => {
    const { frame } = await openDetail(page, archive, 'Wide reading');
    const info = page.getByRole('region', { name: 'Information' });
    await expect(info).toBeVisible();

    const open = await box(frame);
    // Its bottom is the window's (a small margin), not 650 px with dead space under it.
    expect(900 - (open.y + open.height)).toBeGreaterThanOrEqual(0);
    expect(900 - (open.y + open.height)).toBeLessThanOrEqual(16);
    // Nothing to scroll: the page scrolls inside the frame, the window stays put.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(
      900,
    );

    await expectNoSeriousViolations(page, page.url());
    const toggle = page.getByRole('button', { name: 'Hide details' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(info).toBeHidden();
    const showToggle = page.getByRole('button', { name: 'Show details' });
    await expect(showToggle).toHaveAttribute('aria-expanded', 'false');
    await expect.poll(async () => (await box(frame)).width).toBeGreaterThan(open.width + 250);
    const collapsed = await box(frame);
    expect(900 - (collapsed.y + collapsed.height)).toBeLessThanOrEqual(16);

    // The choice survives a reload.
    await page.reload();
    await expect(page.frameLocator(FRAME).getByText('Paragraph 1 of')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show details' })).toBeVisible();
    await expect(info).toBeHidden();
    expect((await box(frame)).width).toBeCloseTo(collapsed.width, 0);

    // And back.
    await page.getByRole('button', { name: 'Show details' }).click();
    await expect(info).toBeVisible();
    await page.reload();
    await expect(page.frameLocator(FRAME).getByText('Paragraph 1 of')).toBeVisible();
    await expect(info).toBeVisible();
    expect((await box(frame)).width).toBeCloseTo(open.width, 0);
  });
});

for (const width of [360, 414, 768]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 700 ? 740 : 1024 }, hasTouch: true });

    test('the page comes first, full width; the details are reached by scrolling past it', async ({
      page,
      archive,
    }) => {
      const { frame } = await openDetail(page, archive, `Narrow reading ${width}`);
      const viewport = page.viewportSize()!;
      const info = page.getByRole('region', { name: 'Information' });
      const frameBox = await box(frame);
      const infoBox = await box(info);
      // The page before the details, on the first screen, as wide as the window allows.
      expect(frameBox.y).toBeLessThan(infoBox.y);
      expect(frameBox.y).toBeLessThan(viewport.height / 2);
      expect(frameBox.x).toBeGreaterThanOrEqual(0);
      expect(frameBox.x + frameBox.width).toBeLessThanOrEqual(viewport.width);
      // A phone's whole width; on a tablet, the whole width of the main area.
      const main = await box(page.getByRole('main'));
      expect(frameBox.width).toBeGreaterThanOrEqual(
        width < 700 ? viewport.width - 2 : main.width - 2 * 24 - 2,
      );
      // The frame leaves part of the window to the app: a touch there scrolls the app.
      expect(frameBox.height).toBeLessThan(viewport.height - 64);
      // No sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await expectNoSeriousViolations(page, page.url());

      // Like and Mark as read stay at hand while reading.
      const like = page.getByRole('button', { name: 'Like', exact: true });
      await expect(like).toBeInViewport();

      // Scrolling the window (a wheel over the app, outside the frame) reaches the details.
      const below = await box(page.getByRole('button', { name: 'Like', exact: true }));
      await page.mouse.move(viewport.width / 2, below.y + below.height / 2);
      const start = await page.evaluate(() => window.scrollY);
      for (let i = 0; i < 20 && !(await info.evaluate(visibleTop)); i++) {
        await page.mouse.wheel(0, 400);
      }
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(start);
      await expect(info.getByText(`About Narrow reading ${width}.`)).toBeInViewport();
      await expect(info.getByRole('button', { name: 'Edit excerpt' })).toBeInViewport();
    });
  });
}

for (const width of [1440, 360]) {
  test.describe(`the full window at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 1000 ? 900 : 740 } });

    test('keeps Like, Mark as read, Previous / Next and the keys, also with the page focused', async ({
      page,
      archive,
    }) => {
      const pages: SeedPage[] = ['Reader 01', 'Reader 02', 'Reader 03'].map((title) => ({
        title,
        host: 'reader.example',
        ext: 'html',
        liked: false,
        read: false,
        labels: [],
      }));
      const seeded = await seed(archive, pages);
      const idOf = (title: string) => seeded.find((p) => p.title === title)!.id;
      const stored = (title: string) =>
        archive.api<{ liked: boolean; read: boolean }>('GET', `/webpages/${idOf(title)}`);
      const expectOn = async (title: string) => {
        await expect(page).toHaveURL(`${archive.url}/webpages/${idOf(title)}/preview`);
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
        await expect(page.frameLocator(FRAME).getByRole('heading', { name: title })).toBeVisible();
      };

      await archive.open(page, '/?sort=title_asc');
      await page
        .getByRole('list', { name: 'Webpages' })
        .getByRole('link', { name: 'Reader 02', exact: true })
        // Enter: a row's layout at 360 px is another journey's subject (library.spec.ts).
        .press('Enter');
      await page.getByRole('link', { name: 'Full window' }).click();
      await expectOn('Reader 02');
      // The bar fits the window: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );

      await expectNoSeriousViolations(page, page.url());

      // The buttons.
      await page.getByRole('button', { name: 'Like', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Unlike', exact: true })).toBeVisible();
      await expect.poll(async () => (await stored('Reader 02')).liked).toBe(true);
      await page.getByRole('button', { name: 'Mark as read', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Mark as unread', exact: true })).toBeVisible();
      await expect.poll(async () => (await stored('Reader 02')).read).toBe(true);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await expectOn('Reader 03');
      await expect(page.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
      await page.getByRole('button', { name: 'Previous', exact: true }).click();
      await expectOn('Reader 02');

      // The keys, with the app focused…
      await page.keyboard.press('j');
      await expectOn('Reader 03');
      await page.keyboard.press('l');
      await expect.poll(async () => (await stored('Reader 03')).liked).toBe(true);
      // …and with the archived page focused (a click into it to read).
      await page.frameLocator(FRAME).getByRole('heading', { name: 'Reader 03' }).click();
      await page.keyboard.press('r');
      await expect.poll(async () => (await stored('Reader 03')).read).toBe(true);
      await page.keyboard.press('k');
      await expectOn('Reader 02');
      await page.frameLocator(FRAME).getByRole('heading', { name: 'Reader 02' }).click();
      await page.keyboard.press('l');
      await expect.poll(async () => (await stored('Reader 02')).liked).toBe(false);

      // Back to the details, still within the list: Next goes on from there.
      await page.getByRole('link', { name: '← Details' }).click();
      await expect(page).toHaveURL(`${archive.url}/webpages/${idOf('Reader 02')}`);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await expect(page).toHaveURL(`${archive.url}/webpages/${idOf('Reader 03')}`);
    });
  });
}

test('the full window opened from a view moves within the view and leads back into it', async ({
  page,
  archive,
}) => {
  const pages: SeedPage[] = ['Shelf 01', 'Shelf 02', 'Shelf 03', 'Elsewhere'].map((title) => ({
    title,
    host: 'shelf.example',
    ext: 'html',
    liked: false,
    read: false,
    labels: title.startsWith('Shelf') ? ['shelf'] : [],
  }));
  const seeded = await seed(archive, pages);
  const idOf = (title: string) => seeded.find((p) => p.title === title)!.id;
  const view = await archive.api<{ id: string }>('POST', '/views', {
    title: 'Shelf',
    sort: 1, // title A→Z
    filters: [{ type: 2, key: 'label', operator: 1, rightOperand: ['shelf'] }],
  });
  await archive.open(page, `/webpages/${idOf('Shelf 02')}?view=${view.id}`);
  await page.getByRole('link', { name: 'Full window' }).click();
  await expect(page).toHaveURL(
    `${archive.url}/webpages/${idOf('Shelf 02')}/preview?view=${view.id}`,
  );
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page).toHaveURL(
    `${archive.url}/webpages/${idOf('Shelf 03')}/preview?view=${view.id}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Shelf 03' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(
    `${archive.url}/webpages/${idOf('Shelf 01')}/preview?view=${view.id}`,
  );
  await page.getByRole('link', { name: '← Details' }).click();
  await expect(page).toHaveURL(`${archive.url}/webpages/${idOf('Shelf 01')}?view=${view.id}`);
  await expect(page.getByRole('link', { name: '← Shelf' })).toBeVisible();
});

test('a page without a <title> is listed and shown under its first <h1>', async ({
  page,
  archive,
}) => {
  const { id } = await archive.upload(
    makeHtml({
      body: '<h1>Notes on <em>tidal</em> pools</h1><h1>A second heading</h1><p>Text.</p>',
    }),
    'html',
  );
  await archive.open(page, '/');
  await expect(
    page
      .getByRole('list', { name: 'Webpages' })
      .getByRole('link', { name: 'Notes on tidal pools', exact: true }),
  ).toBeAttached();
  await expect(page.getByText('Untitled')).toHaveCount(0);
  await archive.open(page, `/webpages/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Notes on tidal pools' })).toBeVisible();
  await expect(page).toHaveTitle('Notes on tidal pools · Folio');
});

/** Whether the element's top is within the window. */
function visibleTop(element: Element): boolean {
  const { top } = element.getBoundingClientRect();
  return top >= 0 && top < window.innerHeight;
}
