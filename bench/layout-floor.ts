// What one change of layout costs in a long page, in Chromium alone (no Folio, no server): the
// bench's long page (`makeLongHtml`) in a frame `sandbox="allow-same-origin"` like the preview's,
// changed once per drawn frame, and the frame's rendering timed from its animation frame to the
// task after it (style, layout, pre-paint and paint). It is the floor under the long page's tasks
// in `npm run bench`: every piece the preview appends pays it (docs/performance.md, nineteenth
// round). Usage: npx tsx bench/layout-floor.ts
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.ts';
import { makeLongHtml } from './fixtures.ts';

/** Posts of the pages measured (18 elements each). */
const SIZES = [1_000, 3_000, 6_000];
/** Drawn frames per change; the median is printed. */
const FRAMES = 9;
/** Posts appended at once, as the preview appends a piece. */
const APPENDED = [1, 5, 28, 110];

interface Floor {
  elements: number;
  /** A colour changed on the last post: paint only, no layout. */
  colour: number;
  /** One short paragraph appended to the body. */
  paragraph: number;
  /** `APPENDED[i]` posts appended to the body (after the others: the page grows as it goes). */
  appended: number[];
}

async function measure(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.setContent(
      '<!DOCTYPE html><html><body style="margin:0"><iframe sandbox="allow-same-origin" ' +
        'style="display:block;width:100vw;height:100vh;border:0"></iframe></body></html>',
    );
    console.log(
      `posts    elements  colour  one <p>  ${APPENDED.map((k) => `${k} posts`.padStart(10)).join('')}   (ms of rendering, median of ${FRAMES} frames)`,
    );
    for (const posts of SIZES) {
      const html = makeLongHtml(posts, `floor-${posts}`).toString('utf8');
      const floor = await page.evaluate(
        // No named functions in here: tsx would wrap them in a helper the page does not have.
        async ({ html, frames, appended }): Promise<Floor> => {
          const frame = document.querySelector('iframe')!;
          await new Promise((resolve) => {
            frame.onload = resolve;
            frame.srcdoc = html;
          });
          const doc = frame.contentDocument!;
          const last = doc.querySelector('article:last-of-type') as HTMLElement;
          const post = last.outerHTML;
          const elements = doc.getElementsByTagName('*').length;
          const changes: ((index: number) => void)[] = [
            () => undefined,
            (index) => {
              last.style.color = index % 2 ? '#111' : '#222';
            },
            () => doc.body.insertAdjacentHTML('beforeend', '<p>One more paragraph.</p>'),
            ...appended.map(
              (count) => () => doc.body.insertAdjacentHTML('beforeend', post.repeat(count)),
            ),
          ];
          const medians: number[] = [];
          for (const change of changes) {
            const times: number[] = [];
            for (let index = 0; index < frames; index++) {
              change(index);
              times.push(
                await new Promise<number>((resolve) =>
                  requestAnimationFrame(() => {
                    const start = performance.now();
                    setTimeout(() => resolve(performance.now() - start), 0);
                  }),
                ),
              );
            }
            times.sort((a, b) => a - b);
            medians.push(times[Math.floor(times.length / 2)]!);
          }
          // The first change (none) only lets the loaded page settle.
          const [, colour = 0, paragraph = 0, ...added] = medians;
          return {
            elements,
            colour,
            paragraph,
            appended: added,
          };
        },
        { html, frames: FRAMES, appended: APPENDED },
      );
      const ms = (value: number, width: number) => value.toFixed(0).padStart(width);
      console.log(
        `${String(posts).padEnd(8)} ${String(floor.elements).padStart(8)} ${ms(floor.colour, 7)} ${ms(floor.paragraph, 8)}  ${floor.appended.map((value) => ms(value, 10)).join('')}`,
      );
    }
  } finally {
    await browser.close();
  }
}

await measure();
