// What every preview document starts with, and the two documents the builder makes itself.
import { HIGHLIGHT_STYLE_ELEMENT } from '../../../lib/highlight-style.ts';
import { escapeAttribute, startTag } from './serialize.ts';

/**
 * No scripts, no network, no frames, no forms: only inline styles and data:/blob: resources, and
 * for a page with linked parts (linked MHTML) the server's part links, `partsBase` (an absolute
 * `…/parts/` address, `partLinksBase`): a source with a path allows that path's descendants only.
 */
export function previewCsp(partsBase: string | null = null): string {
  const sources = partsBase === null ? 'data: blob:' : `data: blob: ${partsBase}`;
  return (
    `default-src 'none'; img-src ${sources}; style-src 'unsafe-inline' data: blob:; ` +
    `font-src ${sources}; media-src ${sources}`
  );
}

export const PREVIEW_CSP = previewCsp();

/**
 * Written first in every preview document's <head>; with the rules that paint highlights, which
 * paint nothing until the app registers some (see lib/highlight-style.ts).
 */
export function previewHead(partsBase: string | null = null): string {
  return (
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(previewCsp(partsBase))}">` +
    '<meta charset="utf-8">' +
    '<meta name="referrer" content="no-referrer">' +
    '<meta http-equiv="x-dns-prefetch-control" content="off">' +
    HIGHLIGHT_STYLE_ELEMENT
  );
}

export const PREVIEW_HEAD = previewHead();

/** What a frame shows when its source is not in the archive (rather than an about:blank). */
export const EMPTY_DOCUMENT = `<!DOCTYPE html><html><head>${PREVIEW_HEAD}</head><body></body></html>`;

/** A document showing one archived image (a frame whose source is an image). */
export function imageDocument(url: string, partsBase: string | null = null): string {
  return (
    `<!DOCTYPE html><html><head>${previewHead(partsBase)}</head><body style="margin:0">` +
    `${startTag('img', [
      ['src', url],
      ['alt', ''],
      ['style', 'max-width:100%'],
    ])}</body></html>`
  );
}
