// The reader frame's document: the preview's CSP first in <head> (no script, no network: images
// are the archive's blob:/data: URLs only), the article's header (title, byline, site, reading
// time, all as text, marked as the app's own: not the page's text to highlight) and its
// whitelisted body, in the app's typography. The settings are CSS
// variables on the root element, changed in place (`applyReaderSettings`) so that a change keeps
// the reader's scroll position and its document (a highlight layer may be attached to it).
import { APP_TEXT_ATTRIBUTE } from '../../../lib/page-text.ts';
import { previewHead } from '../document/preamble.ts';
import { rootElement } from '../frame/archived-dom.ts';
import { escapeAttribute, escapeText } from '../document/serialize.ts';
import type { ReaderArticle } from './extract-article.ts';
import { resolveReaderTheme, type ReaderSettings } from './reader-settings.ts';

const FONTS = {
  serif: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, 'Noto Serif', serif",
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', Arial, sans-serif",
} as const;

const WIDTHS = { narrow: '34em', medium: '42em', wide: '56em' } as const;

const READER_CSS = `
:root { color-scheme: light; --bg: #ffffff; --text: #1b1f24; --muted: #5d6673; --link: #2549ad; --rule: #dde1e7; --code: #f0f2f5; }
:root[data-theme="sepia"] { --bg: #f4ecd8; --text: #433422; --muted: #6b5a44; --link: #7a3e12; --rule: #dccfb2; --code: #ebe0c6; }
:root[data-theme="dark"] { color-scheme: dark; --bg: #1c2027; --text: #e6e9ee; --muted: #a3acb9; --link: #8fb0ff; --rule: #333a45; --code: #252a33; }
html { background: var(--bg); color: var(--text); font-family: var(--reader-font); font-size: var(--reader-size); line-height: var(--reader-line-height); -webkit-text-size-adjust: 100%; }
body { margin: 0; padding: 2em 1.25em 4em; }
main { max-width: var(--reader-width); margin: 0 auto; overflow-wrap: break-word; }
header { margin-bottom: 2em; padding-bottom: 1em; border-bottom: 1px solid var(--rule); }
h1 { font-size: 1.8em; line-height: 1.25; margin: 0 0 0.5em; }
h2, h3, h4, h5, h6 { line-height: 1.3; margin: 1.6em 0 0.6em; }
.reader-meta { margin: 0.25em 0; color: var(--muted); font-size: 0.85em; }
a { color: var(--link); }
img { max-width: 100%; height: auto; }
figure { margin: 1.5em 0; }
figcaption { color: var(--muted); font-size: 0.85em; }
blockquote { margin: 1em 0; padding-inline-start: 1em; border-inline-start: 3px solid var(--rule); color: var(--muted); }
pre, code, kbd, samp { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85em; background: var(--code); }
pre { padding: 0.75em; overflow-x: auto; line-height: 1.45; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--rule); padding: 0.3em 0.6em; }
hr { border: 0; border-top: 1px solid var(--rule); }
`;

/** The custom properties and theme of `settings`, as the reader document's root carries them. */
export function settingsStyle(settings: ReaderSettings): Record<string, string> {
  return {
    '--reader-font': FONTS[settings.font],
    '--reader-size': `${settings.size}px`,
    '--reader-width': WIDTHS[settings.width],
    '--reader-line-height': String(settings.lineHeight),
  };
}

function styleAttribute(settings: ReaderSettings): string {
  return Object.entries(settingsStyle(settings))
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
}

/**
 * The whole reader document, for the frame's `srcdoc`; `partsBase` is the preview's (its linked
 * parts, which the article's images may be).
 */
export function readerDocument(
  article: ReaderArticle,
  settings: ReaderSettings,
  partsBase: string | null = null,
): string {
  const rootAttributes = [
    article.lang ? ` lang="${escapeAttribute(article.lang)}"` : '',
    ` dir="${article.dir ?? 'auto'}"`,
    ` data-theme="${resolveReaderTheme(settings.theme)}"`,
    ` style="${escapeAttribute(styleAttribute(settings))}"`,
  ].join('');
  const meta: string[] = [];
  if (article.byline)
    meta.push(`<p class="reader-meta reader-byline">${escapeText(article.byline)}</p>`);
  const details = [article.siteName, `${article.minutes} min read`].filter(Boolean).join(' · ');
  meta.push(`<p class="reader-meta reader-details">${escapeText(details)}</p>`);
  return (
    `<!DOCTYPE html><html${rootAttributes}><head>${previewHead(partsBase)}` +
    `<title>${escapeText(article.title)}</title><style>${READER_CSS}</style></head>` +
    `<body><main><article><header ${APP_TEXT_ATTRIBUTE}><h1>${escapeText(article.title)}</h1>${meta.join('')}</header>` +
    `<div class="reader-content">${article.html}</div></article></main></body></html>`
  );
}

/** Applies `settings` to a reader document already shown (same-origin frame, no scripts in it). */
export function applyReaderSettings(doc: Document, settings: ReaderSettings): void {
  // Through the prototype: `<img id="documentElement">` in the article would shadow the property.
  const root = rootElement(doc) as HTMLElement | null;
  if (!root) return;
  for (const [name, value] of Object.entries(settingsStyle(settings))) {
    root.style.setProperty(name, value);
  }
  root.dataset.theme = resolveReaderTheme(settings.theme);
}
