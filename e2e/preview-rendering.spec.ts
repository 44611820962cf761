// The preview shows archived pages faithfully from the archive alone: styles (linked, imported,
// relative to the stylesheet), images, frames (MHTML cid: frames, webarchive subframes), in-page
// links; and the app stays where it is. Nothing is fetched but the app and its API.
import type { Page } from '@playwright/test';
import { makeMhtml, makePng, makeWebarchive } from '../test/support/archives.ts';
import { expect, test, type Archive } from './support/fixtures.ts';

const PREVIEW = 'iframe[title^="Preview of"]';

/** Records every request that leaves the app's origin (data: and blob: URLs are local). */
function watchForeignRequests(page: Page, archive: Archive): string[] {
  const foreign: string[] = [];
  page.context().on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return;
    if (url.origin !== archive.url) foreign.push(request.url());
  });
  return foreign;
}

function chromiumMhtml(): Buffer {
  const page = 'https://archived.example/articles/story.html';
  return makeMhtml({
    url: page,
    html:
      '<!DOCTYPE html><html><head><title>Story</title>' +
      '<link rel="stylesheet" href="../css/site.css"></head><body>' +
      '<h1 id="title">MHTML-PREVIEW-heading</h1>' +
      '<img id="photo" src="img/photo.png" width="40" height="30" alt="photo">' +
      '<div id="bg"></div>' +
      '<iframe id="frame" src="cid:frame-1@mhtml.blink" width="300" height="120"></iframe>' +
      '<p><a id="jump" href="#end">Jump to the end</a></p>' +
      '<div style="height:3000px"></div><p id="end">The end of the story</p>' +
      '<script>document.title = "pwned"; window.top.__pwned = true;</script>' +
      '</body></html>',
    resources: [
      {
        url: 'https://archived.example/css/site.css',
        contentType: 'text/css',
        body:
          '@import "theme.css";\n' +
          '#bg { width: 50px; height: 50px; background: url(../img/bg.png); }',
      },
      {
        url: 'https://archived.example/css/theme.css',
        contentType: 'text/css',
        body: 'h1 { color: rgb(0, 128, 0); }',
      },
      {
        url: 'https://archived.example/articles/img/photo.png',
        contentType: 'image/png',
        body: makePng(40, 30, [255, 0, 0]),
      },
      {
        url: 'https://archived.example/img/bg.png',
        contentType: 'image/png',
        body: makePng(10, 10, [0, 0, 255]),
      },
      {
        url: 'https://frames.example/widget.html',
        contentId: 'frame-1@mhtml.blink',
        contentType: 'text/html',
        body:
          '<p id="inframe">MHTML-PREVIEW-inside-the-frame</p>' +
          '<img id="framephoto" src="https://archived.example/articles/img/photo.png" alt="">',
      },
    ],
  });
}

test('an MHTML archive is shown with its styles, images and frames, from the archive only', async ({
  page,
  archive,
}) => {
  const foreign = watchForeignRequests(page, archive);
  const { id } = await archive.upload(chromiumMhtml(), 'mhtml', { title: 'Story' });
  const appUrl = `${archive.url}/webpages/${id}`;
  await archive.open(page, `/webpages/${id}`);

  const frame = page.frameLocator(PREVIEW);
  const heading = frame.locator('#title');
  await expect(heading).toHaveText('MHTML-PREVIEW-heading');
  // theme.css, imported by site.css: found relative to the stylesheet, not the page.
  await expect(heading).toHaveCSS('color', 'rgb(0, 128, 0)');
  await expect(frame.locator('#bg')).toHaveCSS('background-image', /^url\("blob:/);
  await expect
    .poll(() => frame.locator('#photo').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(40);

  const nested = frame.frameLocator('#frame');
  await expect(nested.locator('#inframe')).toHaveText('MHTML-PREVIEW-inside-the-frame');
  await expect
    .poll(() => nested.locator('#framephoto').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(40);

  // An in-page link scrolls the frame; neither the frame nor the app navigates.
  await frame.locator('#jump').click();
  const previewState = () =>
    page.evaluate((selector) => {
      const element = document.querySelector<HTMLIFrameElement>(selector);
      return {
        url: element?.contentDocument?.URL,
        scrolled: element?.contentWindow?.scrollY ?? 0,
      };
    }, PREVIEW);
  await expect.poll(async () => (await previewState()).scrolled).toBeGreaterThan(1000);
  expect((await previewState()).url).toBe('about:srcdoc');
  expect(page.url()).toBe(appUrl);

  // The archived script never ran.
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.title()).not.toBe('pwned');
  expect(foreign).toEqual([]);
});

test('a webarchive shows its subresources and subframes; the full-window page fills the window', async ({
  page,
  archive,
}) => {
  const foreign = watchForeignRequests(page, archive);
  const file = makeWebarchive({
    url: 'https://safari.example/',
    html:
      '<html><head><link rel="stylesheet" href="style.css"><link rel="stylesheet" href="fake.css">' +
      '</head><body><p id="text">WEBARCHIVE-PREVIEW-text</p><img id="logo" src="logo.png" alt="">' +
      '<iframe id="sub" src="https://embed.example/frame.html" width="300" height="100"></iframe>' +
      '</body></html>',
    subresources: [
      {
        url: 'https://safari.example/style.css',
        mimeType: 'text/css',
        data: 'p { font-size: 31px; }',
      },
      // Claims to be a stylesheet, is HTML: never used as one.
      {
        url: 'https://safari.example/fake.css',
        mimeType: 'text/html',
        data: 'p { font-size: 5px; }',
      },
      { url: 'https://safari.example/logo.png', mimeType: 'image/png', data: makePng(12, 8) },
    ],
    subframes: [
      {
        url: 'https://embed.example/frame.html',
        html: '<p id="subtext">WEBARCHIVE-PREVIEW-subframe</p>',
      },
    ],
  });
  const { id } = await archive.upload(file, 'webarchive', { title: 'Safari page' });
  await archive.open(page, `/webpages/${id}/preview`);

  const frame = page.frameLocator(PREVIEW);
  await expect(frame.locator('#text')).toHaveText('WEBARCHIVE-PREVIEW-text');
  await expect(frame.locator('#text')).toHaveCSS('font-size', '31px');
  await expect
    .poll(() => frame.locator('#logo').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(12);
  await expect(frame.frameLocator('#sub').locator('#subtext')).toHaveText(
    'WEBARCHIVE-PREVIEW-subframe',
  );

  const element = page.locator(PREVIEW);
  await expect(element).toHaveAttribute('sandbox', 'allow-same-origin');
  await expect(element).toHaveAttribute('title', 'Preview of Safari page');
  // Full window: the frame takes most of the window's height.
  const box = await element.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThan((page.viewportSize()?.height ?? 0) * 0.6);
  expect(foreign).toEqual([]);
});
