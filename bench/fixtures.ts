// Large archives for the upload, content and preview figures: an MHTML shaped like Chromium's, with
// an article and six random-noise PNG images (noise does not compress, so the file is as large on
// the wire as on disk).
import { makeMhtml, makeNoisePng } from '../test/support/archives.ts';

const IMAGE_COUNT = 6;
const IMAGE_WIDTH = 1200;

function article(title: string, imageUrls: readonly string[], nonce: string): string {
  const paragraph = (n: number) =>
    `<p>Paragraph ${n} of the benchmark article ${nonce}. Archived pages are mostly text around ` +
    `large images; this one has ${imageUrls.length} of them, each a few megabytes of noise.</p>`;
  const body: string[] = [`<h1>${title}</h1>`];
  imageUrls.forEach((url, index) => {
    for (let n = 0; n < 40; n++) body.push(paragraph(index * 40 + n));
    body.push(
      `<figure><img src="${url}" alt="Figure ${index + 1}"><figcaption>Figure ${index + 1}</figcaption></figure>`,
    );
  });
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>` +
    `<meta name="description" content="A large archived article for the benchmark">` +
    `<style>body{font:16px/1.5 serif;max-width:50em;margin:auto}img{max-width:100%}</style>` +
    `</head><body>${body.join('\n')}</body></html>`
  );
}

/**
 * An MHTML of about `targetBytes` (±1%): an article with six noise PNGs. `nonce` makes the bytes
 * (and so the webpage id) unique.
 */
export function makeLargeMhtml(targetBytes: number, nonce: string): Buffer {
  const url = `https://bench.example/articles/${nonce}`;
  const imageUrls = Array.from({ length: IMAGE_COUNT }, (_, i) => `${url}/figure-${i + 1}.png`);
  const title = `Benchmark article ${nonce}`;
  const html = article(title, imageUrls, nonce);
  // base64 in 76-character lines: 4/3 × 78/76 bytes per image byte.
  const perImage = (targetBytes - html.length * 1.05 - 4096) / IMAGE_COUNT / ((4 / 3) * (78 / 76));
  const height = Math.max(1, Math.round(perImage / (IMAGE_WIDTH * 3 + 1)));
  return makeMhtml({
    html,
    url,
    date: new Date('2026-01-15T10:00:00Z'),
    resources: imageUrls.map((imageUrl) => ({
      url: imageUrl,
      contentType: 'image/png',
      body: makeNoisePng(IMAGE_WIDTH, height),
    })),
  });
}

export const MB = 1024 * 1024;

/**
 * A long text page as SingleFile saves one (a long discussion thread or a manual on one page):
 * `posts` sections, each a heading, paragraphs with links and emphasis, a list and a quoted
 * reply: 18 elements and 557 bytes per post (6,000 posts: 3.3 MB, 108,000 elements). No image:
 * what it costs is parsing, rebuilding and laying out its elements. `nonce` makes the bytes
 * unique. (Quotes are blockquotes, not `<q>`: Chromium 156 builds the layout of many `<q>`
 * in quadratic time, 9 s for 6,000 of them, which would measure that alone.)
 */
export function makeLongHtml(posts: number, nonce: string): Buffer {
  const body: string[] = [`<h1>A long thread ${nonce}</h1>`];
  for (let n = 0; n < posts; n++) {
    body.push(
      `<article id="post-${n}"><h2><a href="https://forum.example/t/1/${n}">Reply ${n}</a></h2>` +
        `<p>Posted by <a href="https://forum.example/u/${n % 97}">user ${n % 97}</a> ` +
        `<time datetime="2026-11-${String((n % 28) + 1).padStart(2, '0')}">${(n % 28) + 1} November</time></p>` +
        `<p>This is reply <em>${n}</em> of a long thread, saved whole, with ` +
        `<a href="https://example.org/docs/${n}">a link</a> and <code>some_code(${n})</code>.</p>` +
        `<ul><li>a first point</li><li>a <strong>second</strong> point</li><li>a third</li></ul>` +
        `<blockquote><p>An earlier reply, quoted.</p></blockquote><p>And a last paragraph, which ends the post.</p></article>`,
    );
  }
  return Buffer.from(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>A long thread</title>` +
      `<style>body{font:16px/1.5 sans-serif;max-width:50em;margin:auto}</style>` +
      `</head><body>\n${body.join('\n')}\n</body></html>`,
  );
}
