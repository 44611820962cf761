// The same "rich" saved page in the three formats, for the preview journeys: text, an image and a
// stylesheet that the preview must show, plus scripts, an event handler and references to the live
// web (an image, a stylesheet, a script, a CSS background) that it must neither run nor fetch.
import type { Browser } from '@playwright/test';
import { makeHtml, makeNoisePng, makePng, makeWebarchive } from '../../test/support/archives.ts';
import { captureMhtml, editCapturedDocument, startSourceSite, type SourceSite } from './capture.ts';
import type { Ext } from './seed.ts';

export type { Ext };

/** What the preview must show, and what would change if anything in the page ran. */
export const RICH = {
  /** The image's size in the file; the preview's `<img id="photo">` must load at this size. */
  photo: { width: 40, height: 30 },
  /**
   * The Chromium capture's second image, `<img id="poster">`: a photo's weight (~90 kB of noise),
   * which Folio's server links rather than sends (`part-links.ts`).
   */
  poster: { width: 200, height: 150 },
  /** `#headline`'s colour and `#marker`'s left border from the page's own stylesheet. */
  headlineColor: 'rgb(12, 34, 56)',
  markerBorder: '7px solid rgb(200, 100, 0)',
  /** `#script-target`'s text while no script ran. */
  quiet: 'No script has run here.',
} as const;

export interface RichPage {
  ext: Ext;
  file: Buffer;
  /** A file name with the format's usual suffix. */
  fileName: string;
  title: string;
  /** Visible text of the page. */
  marker: string;
  /** The page's address as the archive stores it. */
  link: string;
  host: string;
}

const photo = () => makePng(RICH.photo.width, RICH.photo.height, [0, 120, 255]);

function stylesheet(liveOrigin: string): string {
  return [
    `@import url("${liveOrigin}/imported.css");`,
    '#headline { color: rgb(12, 34, 56); letter-spacing: 2px; }',
    '#marker { border-left: 7px solid rgb(200, 100, 0); ' +
      `background-image: url("${liveOrigin}/bg.png"); }`,
  ].join('\n');
}

/** The page's visible content; `photoSrc` is where its image is. */
function body(options: { title: string; marker: string; photoSrc: string; liveOrigin: string }) {
  const { title, marker, photoSrc, liveOrigin } = options;
  return [
    `<h1 id="headline">${title}</h1>`,
    `<p id="marker">${marker}</p>`,
    `<p id="script-target">${RICH.quiet}</p>`,
    `<img id="photo" src="${photoSrc}" alt="A blue rectangle">`,
    `<img id="live-image" src="${liveOrigin}/extra.png" alt="From the live web">`,
  ].join('\n');
}

/** Scripts a safe preview must not run; each would change `#script-target` and the titles. */
function scripts(liveOrigin: string): string {
  return [
    `<script src="${liveOrigin}/extra.js"></script>`,
    '<script>',
    "document.getElementById('script-target').textContent = 'A SCRIPT RAN';",
    "document.title = 'SCRIPT RAN';",
    "try { window.top.__pwned = 'inline script'; } catch (e) {}",
    '</script>',
    `<img id="handler" src="${liveOrigin}/missing.png" alt="" ` +
      `onerror="document.getElementById('script-target').textContent = 'A HANDLER RAN'">`,
  ].join('\n');
}

const liveHead = (liveOrigin: string) =>
  `<link rel="stylesheet" href="${liveOrigin}/extra.css">\n` +
  `<script src="${liveOrigin}/head.js"></script>`;

/** A SingleFile-like HTML page: styles inline, the image as a data: URL, its address in a comment. */
export function richHtml(title: string, liveOrigin: string): RichPage {
  const link = 'https://singlefile.example.org/articles/rich-page';
  const marker = `Text of ${title}, saved as one HTML file.`;
  const photoSrc = `data:image/png;base64,${photo().toString('base64')}`;
  const file = makeHtml({
    title,
    description: `The HTML version of ${title}`,
    singleFileUrl: link,
    savedDate: new Date('2026-03-04T05:06:07Z'),
    extraHead: `<style>\n${stylesheet(liveOrigin)}\n</style>\n${liveHead(liveOrigin)}`,
    body: `${body({ title, marker, photoSrc, liveOrigin })}\n${scripts(liveOrigin)}`,
  });
  return {
    ext: 'html',
    file,
    fileName: 'rich-page.html',
    title,
    marker,
    link,
    host: new URL(link).host,
  };
}

/** A Safari webarchive: the page with its image and stylesheet as subresources. */
export function richWebarchive(title: string, liveOrigin: string): RichPage {
  const link = 'https://safari.example.net/stories/rich-page.html';
  const marker = `Text of ${title}, saved by Safari.`;
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8">',
    `<title>${title}</title>`,
    '<link rel="stylesheet" href="assets/style.css">',
    liveHead(liveOrigin),
    '</head><body>',
    body({ title, marker, photoSrc: 'assets/photo.png', liveOrigin }),
    scripts(liveOrigin),
    '</body></html>',
  ].join('\n');
  const file = makeWebarchive({
    html,
    url: link,
    subresources: [
      {
        url: 'https://safari.example.net/stories/assets/style.css',
        mimeType: 'text/css',
        data: stylesheet(liveOrigin),
        textEncoding: 'UTF-8',
      },
      {
        url: 'https://safari.example.net/stories/assets/photo.png',
        mimeType: 'image/png',
        data: photo(),
      },
    ],
  });
  return {
    ext: 'webarchive',
    file,
    fileName: 'rich-page.webarchive',
    title,
    marker,
    link,
    host: new URL(link).host,
  };
}

export interface CapturedPage extends RichPage {
  /** The website the page was captured from; the preview must never call it either. */
  site: SourceSite;
}

/**
 * The page captured by Chromium (`Page.captureSnapshot`) from a local website, with the live web
 * blocked during the capture so that its resources are not in the file. Chromium drops scripts and
 * event handlers from snapshots; with `withScripts` they are put back into the captured document.
 */
export async function richMhtml(
  browser: Browser,
  title: string,
  liveOrigin: string,
  { withScripts = true }: { withScripts?: boolean } = {},
): Promise<CapturedPage> {
  const marker = `Text of ${title}, captured by Chromium.`;
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8">',
    `<title>${title}</title>`,
    '<meta name="description" content="Captured by Chromium in the test">',
    // An icon of its own, as most pages declare: without one, Chromium asks the site for
    // /favicon.ico after the load, at a time of its choosing (it came after the capture, and the
    // test took it for a request of the preview).
    '<link rel="icon" href="data:,">',
    '<link rel="stylesheet" href="style.css">',
    liveHead(liveOrigin),
    '</head><body>',
    body({ title, marker, photoSrc: 'photo.png', liveOrigin }),
    '<img id="poster" src="poster.png" alt="A noisy poster">',
    '</body></html>',
  ].join('\n');
  const site = await startSourceSite({
    '/article/index.html': { contentType: 'text/html; charset=utf-8', body: html },
    '/article/style.css': { contentType: 'text/css', body: stylesheet(liveOrigin) },
    '/article/photo.png': { contentType: 'image/png', body: photo() },
    '/article/poster.png': {
      contentType: 'image/png',
      body: makeNoisePng(RICH.poster.width, RICH.poster.height),
    },
  });
  const link = `${site.origin}/article/index.html`;
  let file = await captureMhtml(browser, link, { blockOrigins: [liveOrigin] });
  if (withScripts) {
    file = editCapturedDocument(file, (captured) =>
      captured
        .replace('</head>', `${liveHead(liveOrigin)}</head>`)
        .replace('</body>', `${scripts(liveOrigin)}</body>`),
    );
  }
  // Whatever the capture asked for is done: from now on the site must hear nothing.
  site.requests.length = 0;
  return {
    ext: 'mhtml',
    file,
    fileName: 'rich-page.mhtml',
    title,
    marker,
    link,
    host: site.host,
    site,
  };
}
