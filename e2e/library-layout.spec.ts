// The lists at phone, tablet and desktop widths (issue 12): every row shows its title (the
// 360 px grid once gave it 0 px), rows carry host, date, labels and format, right-to-left titles
// keep their first words, the library says how many pages match, the keyboard's l / r act once per
// press, and toasts stay few.
import type { Locator, Page } from '@playwright/test';
import { expect, test, type Archive } from './support/fixtures.ts';
import { seed, variedPages, type SeedPage } from './support/seed.ts';

const LONG_TITLE = 'Quokka facts and a rather long title that has to wrap on a small phone screen';
const ARABIC_TITLE = 'أخبار الطقس اليوم في مدينة القاهرة والمناطق المجاورة لها على مدار الأسبوع';
const ARABIC_FIRST_WORD = 'أخبار';

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
] as const;

function pages(): SeedPage[] {
  return [
    ...variedPages(10),
    {
      title: LONG_TITLE,
      host: 'animals.example',
      ext: 'html',
      liked: false,
      read: false,
      labels: ['marsupials'],
    },
    {
      title: ARABIC_TITLE,
      host: 'news.example.eg',
      ext: 'mhtml',
      liked: true,
      read: true,
      labels: ['weather'],
    },
  ];
}

interface TitleFit {
  text: string;
  width: number;
  direction: string;
  dir: string | null;
  /** Characters of the start of the title drawn inside the title's box (up to 30). */
  shownFromStart: number;
}

/**
 * For each visible title in `rows`: its width, direction and how many of its first characters
 * (up to 30) are drawn inside its own box (not cut by the ellipsis or by a 0 px column).
 */
function titleFits(titles: Locator): Promise<TitleFit[]> {
  return titles.evaluateAll((elements) =>
    elements
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const text = element.textContent ?? '';
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        let shown = 0;
        let index = 0;
        for (let node = walker.nextNode(); node && index < 30; node = walker.nextNode()) {
          const value = node.nodeValue ?? '';
          for (let offset = 0; offset < value.length && index < 30; offset++, index++) {
            const range = document.createRange();
            range.setStart(node, offset);
            range.setEnd(node, offset + 1);
            const glyph = range.getBoundingClientRect();
            const inside =
              glyph.width > 0 && glyph.left >= box.left - 0.5 && glyph.right <= box.right + 0.5;
            if (!inside) return finish();
            shown++;
          }
        }
        return finish();
        function finish() {
          return {
            text,
            width: box.width,
            direction: getComputedStyle(element).direction,
            dir: element.getAttribute('dir'),
            shownFromStart: shown,
          };
        }
      }),
  );
}

/**
 * The document is no wider than the viewport asked for. Not `innerWidth`: a mobile browser widens
 * its layout viewport to fit content that overflows, so innerWidth grows with the bug.
 */
async function noSidewaysScroll(p: Page, what: string) {
  const scroll = await p.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(p.viewportSize()!.width);
}

/** Every title is wide enough and shows its start: ≥ 150 px, ≥ 30 characters (or all of it). */
async function expectReadableTitles(titles: Locator, width: number, what: string) {
  const fits = await titleFits(titles);
  expect(fits.length, `${what}: no visible titles`).toBeGreaterThan(0);
  for (const fit of fits) {
    expect(fit.width, `${what}: width of “${fit.text}”`).toBeGreaterThan(150);
    if (fit.direction === 'ltr' && width >= 768) {
      expect(
        fit.shownFromStart,
        `${what}: characters shown of “${fit.text}”`,
      ).toBeGreaterThanOrEqual(Math.min(30, fit.text.length));
    }
  }
  for (const fit of fits) expect(fit.dir, `${what}: ${fit.text} has dir=auto`).toBe('auto');
  const arabic = fits.find((fit) => fit.text === ARABIC_TITLE);
  if (arabic) {
    expect(arabic.direction, `${what}: the Arabic title runs right to left`).toBe('rtl');
    // Its first word is drawn, whole, inside its box.
    expect(arabic.shownFromStart, `${what}: the Arabic title's first word`).toBeGreaterThanOrEqual(
      ARABIC_FIRST_WORD.length,
    );
  }
}

async function allPagesView(archive: Archive) {
  return archive.api<{ id: string }>('POST', '/views', { title: 'Every page' });
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('rows show their titles, stack on narrow screens and carry host, date, labels and format', async ({
      page: p,
      archive,
    }) => {
      const seeded = await seed(archive, pages());
      const view = await allPagesView(archive);
      await archive.open(p, '/');
      const list = p.getByRole('list', { name: 'Webpages' });
      await expect(list.getByRole('listitem')).toHaveCount(seeded.length);
      await noSidewaysScroll(p, 'the library');
      await expectReadableTitles(list.locator('.webpage-row__title'), viewport.width, 'library');

      // The row of the long title: its host, date, label chip and format badge are shown.
      const row = list.getByRole('listitem').filter({ hasText: LONG_TITLE });
      for (const part of [
        row.getByRole('link', { name: 'animals.example', exact: true }),
        row.getByRole('link', { name: 'marsupials', exact: true }),
        row.locator('.webpage-row__ext', { hasText: 'html' }),
        row.locator('time.webpage-row__date'),
      ]) {
        await expect(part).toBeVisible();
        // Drawn whole: not cut off by the row, nor by the box that holds it (e.g. the labels').
        const { box, holder } = await part.evaluate((node) => {
          const rect = (element: Element) => element.getBoundingClientRect().toJSON() as DOMRect;
          // The nearest box around it (a `display: contents` parent has none).
          let holder = node.parentElement!;
          while (holder.getBoundingClientRect().width === 0) holder = holder.parentElement!;
          return { box: rect(node), holder: rect(holder) };
        });
        const rowBox = (await row.boundingBox())!;
        for (const outer of [holder, rowBox]) {
          expect(box.x, `${await part.textContent()} starts inside`).toBeGreaterThanOrEqual(
            outer.x - 0.5,
          );
          expect(box.x + box.width, `${await part.textContent()} ends inside`).toBeLessThanOrEqual(
            outer.x + outer.width + 0.5,
          );
        }
        expect(box.x + box.width, 'inside the window').toBeLessThanOrEqual(viewport.width);
      }
      const titleBox = (await row.locator('.webpage-row__title').boundingBox())!;
      const hostBox = (await row.locator('.webpage-row__host').boundingBox())!;
      if (viewport.width < 760) {
        // Stacked: the title has its own line, the details go below it.
        expect(hostBox.y, 'the host is below the title').toBeGreaterThanOrEqual(
          titleBox.y + titleBox.height - 1,
        );
      }
      // The captured date of the MHTML (its Date: header, 2026-01-02) rather than the upload time.
      const mhtmlRow = list.getByRole('listitem').filter({ hasText: ARABIC_TITLE });
      await expect(mhtmlRow.locator('time.webpage-row__date')).toHaveAttribute(
        'datetime',
        /^2026-01-02/,
      );

      await p.goto(`${archive.url}/views/${view.id}`);
      const viewList = p.getByRole('list', { name: 'Webpages of Every page' });
      await expect(viewList.locator('.webpage-row__title').first()).toBeVisible();
      await noSidewaysScroll(p, 'a view');
      await expectReadableTitles(viewList.locator('.webpage-row__title'), viewport.width, 'view');

      await p.goto(`${archive.url}/search?q=page`);
      const results = p.getByRole('list', { name: 'Search results' });
      await expect(results.getByRole('listitem').first()).toBeVisible();
      await noSidewaysScroll(p, 'search');
      await expectReadableTitles(
        results.locator('.search-result__title a'),
        viewport.width,
        'search',
      );
      await expect(results.locator('.search-result__snippet').first()).toHaveAttribute(
        'dir',
        'auto',
      );

      await p.goto(`${archive.url}/views`);
      await expect(
        p
          .getByRole('list', { name: 'Views', exact: true })
          .getByRole('link', { name: 'Every page', exact: true }),
      ).toHaveAttribute('dir', 'auto');
      const arabic = seeded.find((page) => page.title === ARABIC_TITLE)!;
      await p.goto(`${archive.url}/webpages/${arabic.id}`);
      await expect(p.getByRole('heading', { level: 1 })).toHaveAttribute('dir', 'auto');
    });
  });
}

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('no route scrolls sideways', async ({ page: p, archive }) => {
    const seeded = await seed(archive, pages());
    const view = await allPagesView(archive);
    await archive.open(p, '/');
    for (const route of [
      '/',
      `/webpages/${seeded[0]!.id}`,
      '/views',
      `/views/${view.id}`,
      `/views/${view.id}/edit`,
      '/views/new',
      '/upload',
      '/settings',
      '/search?q=page',
    ]) {
      await p.goto(`${archive.url}${route}`);
      await expect(p.locator('main h1').first()).toBeVisible();
      await p.waitForLoadState('networkidle');
      await noSidewaysScroll(p, route);
    }
  });
});

test('the library says how many pages match, and the count follows the filters', async ({
  page: p,
  archive,
}) => {
  const seeded = await seed(archive, variedPages(23));
  const liked = seeded.filter((page) => page.liked).length;
  await archive.open(p, '/?per_page=10');
  const count = p.locator('main header .page__count');
  await expect(count).toHaveText(`${seeded.length} webpages`);
  await p.getByRole('combobox', { name: 'Liked', exact: true }).selectOption('yes');
  await expect(count).toHaveText(`${liked} webpages`);
  await expect(p.getByRole('list', { name: 'Webpages' }).getByRole('listitem')).toHaveCount(
    Math.min(liked, 10),
  );
});

test('every l and r press acts once: 20 presses, 20 changes, the right end state', async ({
  page: p,
  archive,
}) => {
  const [first] = await seed(archive, [
    {
      title: 'Pressed page',
      host: 'keys.example',
      ext: 'html',
      liked: false,
      read: false,
      labels: [],
    },
    {
      title: 'Another page',
      host: 'keys.example',
      ext: 'html',
      liked: false,
      read: false,
      labels: [],
    },
  ]);
  const patches: string[] = [];
  p.on('requestfinished', (request) => {
    if (request.method() === 'PATCH') patches.push(request.url());
  });
  await archive.open(p, '/?sort=title_desc');
  const list = p.getByRole('list', { name: 'Webpages' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await p.waitForLoadState('networkidle');
  await p.keyboard.press('j');
  await expect(list.getByRole('link', { name: 'Pressed page' })).toBeFocused();

  const keys = 'lrlrllrrlrlllrrlrrlr'.split('');
  expect(keys).toHaveLength(20);
  for (const key of keys) await p.keyboard.press(key);

  const likes = keys.filter((key) => key === 'l').length;
  const reads = keys.length - likes;
  await expect.poll(() => patches.length).toBe(20);
  await expect
    .poll(async () =>
      archive.api<{ liked: boolean; read: boolean }>('GET', `/webpages/${first!.id}`),
    )
    .toMatchObject({ liked: likes % 2 === 1, read: reads % 2 === 1 });
  await p.waitForLoadState('networkidle');
  expect(patches).toHaveLength(20);
  expect(patches.every((url) => url.endsWith(`/webpages/${first!.id}`))).toBe(true);

  // Toasts: at most three at once; the changes collapse into one message with one Undo.
  const toasts = p.locator('.toasts .toast');
  expect(await toasts.count()).toBeLessThanOrEqual(3);
  const saved = toasts.filter({ hasText: '20 changes saved' });
  await expect(saved).toBeVisible();
  await saved.getByRole('button', { name: 'Undo 20 changes' }).click();
  await expect
    .poll(async () =>
      archive.api<{ liked: boolean; read: boolean }>('GET', `/webpages/${first!.id}`),
    )
    .toMatchObject({ liked: false, read: false });
  await expect.poll(() => patches.length).toBe(40);
  expect(await toasts.count()).toBeLessThanOrEqual(3);
});
