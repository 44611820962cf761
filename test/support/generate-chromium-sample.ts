// Regenerates test/fixtures/chromium-sample.mhtml with a real headless Chromium:
//   npx tsx test/support/generate-chromium-sample.ts [/usr/bin/chromium]
// The page is served from a fake https origin through request interception, so nothing leaves the
// machine and the archived URLs are stable. Tests pin facts about the committed file, so only
// regenerate it on purpose.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { makePng } from './archives.ts';

const ORIGIN = 'https://folio.example';
const PAGE_URL = `${ORIGIN}/articles/gruesse.html`;

const PAGE = `<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Grüße aus Köln — 日本語のテスト</title>
<meta name="description" content="Ein Beispiel mit Umlauten: äöü ß, and a line long enough that the quoted-printable encoder has to insert soft line breaks.">
<link rel="canonical" href="${PAGE_URL}">
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<h1>Grüße aus Köln</h1>
<p class="lead">Ceci est un café — naïve façade, 日本語テキスト, emoji 🐹.</p>
<p><img src="/img/dot.png" alt="a red dot" width="4" height="4"> A = B &amp; C &lt; D</p>
<iframe src="/frames/note.html" title="note"></iframe>
<script>document.body.dataset.seen = "yes";</script>
</body>
</html>
`;

const FRAME = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Randnotiz</title></head>
<body><p>Eine Randnotiz im Rahmen.</p></body></html>`;

const CSS = `body { font-family: serif; color: #223; background: url("/img/bg.png"); }
.lead::before { content: "→ "; }
`;

const executablePath = process.argv[2] ?? '/usr/bin/chromium';
const output = fileURLToPath(new URL('../fixtures/chromium-sample.mhtml', import.meta.url));

const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.route(`${ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/static/site.css') {
      return route.fulfill({ contentType: 'text/css; charset=utf-8', body: CSS });
    }
    if (pathname === '/img/dot.png') {
      return route.fulfill({ contentType: 'image/png', body: makePng(4, 4, [200, 40, 90]) });
    }
    if (pathname === '/img/bg.png') {
      return route.fulfill({ contentType: 'image/png', body: makePng(2, 2, [240, 240, 250]) });
    }
    if (pathname === '/frames/note.html') {
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: FRAME });
    }
    if (pathname === '/articles/gruesse.html') {
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: PAGE });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(PAGE_URL, { waitUntil: 'load' });
  const session = await page.context().newCDPSession(page);
  const { data } = await session.send('Page.captureSnapshot', { format: 'mhtml' });
  // CDP returns the MHTML as a string of byte-valued characters (the file is 7-bit ASCII).
  writeFileSync(output, Buffer.from(data, 'latin1'));
  console.log(`wrote ${output} (${data.length} bytes)`);
} finally {
  await browser.close();
}
