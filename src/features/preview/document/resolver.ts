// Where a URL in the archived page may point in the preview. Subresources come only from the
// archive (as blob: tokens) or from inert data: URLs of the right type; links keep their absolute
// http(s) target for the parent to open; everything else is dropped and never fetched.
import { decodeText, normalizeCharset } from '../../../../shared/formats/bytes.ts';
import { isHtmlEntry, type ArchiveEntry, type ArchiveIndex } from './archive.ts';
import { rewriteDeclarations, rewriteStylesheet } from './css.ts';
import type { ResourceTable, ResourceUse } from './resources.ts';
import { dataUrlBytes, dataUrlType, isHttpUrl, resolveUrl } from './urls.ts';

/** data: URL types kept as written, per use: inert content a browser renders without a document. */
const DATA_TYPES: Record<ResourceUse, RegExp> = {
  image: /^image\//,
  'css-url':
    /^(?:image\/|font\/|application\/(?:x-)?font|application\/vnd\.ms-fontobject$|application\/octet-stream$|application\/x-woff)/,
  media: /^(?:audio\/|video\/|text\/vtt$)/,
};

const STYLESHEET_LIKE = new Set(['', 'text/plain', 'application/octet-stream']);

/** The address relative URLs in a stylesheet resolve against: its own, when it is hierarchical. */
function stylesheetBase(entry: ArchiveEntry, fallback: string | null): string | null {
  if (entry.url && resolveUrl('x', entry.url)) return entry.url;
  return fallback;
}

/** Decodes a stylesheet: BOM, declared charset, `@charset`, else UTF-8 (CSS Syntax's order). */
export function decodeStylesheet(entry: ArchiveEntry): string {
  let charset = normalizeCharset(entry.charset);
  if (!charset) {
    const head = new TextDecoder('latin1').decode(entry.body.subarray(0, 1024));
    const match = /^@charset "([^"]{1,40})";/.exec(head);
    charset = normalizeCharset(match?.[1]);
    // A stylesheet claiming UTF-16 in ASCII bytes is UTF-8 (CSS Syntax §3.2).
    if (charset === 'utf-16le' || charset === 'utf-16be') charset = 'utf-8';
  }
  return decodeText(entry.body, charset ?? 'utf-8');
}

export class PreviewResolver {
  /** Stylesheets that came as data:text/css URLs, by URL, so each is rewritten once. */
  private readonly dataStylesheets = new Map<string, ArchiveEntry>();
  /** Rewritten stylesheets; `null` when unusable, `pending` while being rewritten (a cycle). */
  private readonly stylesheets = new Map<ArchiveEntry, string | null | 'pending'>();

  constructor(
    private readonly index: ArchiveIndex,
    private readonly resources: ResourceTable,
  ) {}

  /** An archive entry for `ref`, or a data: URL kept as is, or `null`. */
  private locate(ref: string, base: string | null): { entry: ArchiveEntry } | { data: URL } | null {
    const trimmed = ref.trim();
    if (!trimmed) return null;
    const url = resolveUrl(trimmed, base);
    if (!url) return null;
    if (url.protocol === 'data:') return { data: url };
    if (
      url.protocol === 'javascript:' ||
      url.protocol === 'vbscript:' ||
      url.protocol === 'blob:'
    ) {
      return null;
    }
    const entry = this.index.lookup(url);
    return entry ? { entry } : null;
  }

  /** The URL of a subresource (image, font, media…) or `null` to drop it. */
  subresource(ref: string, base: string | null, use: ResourceUse): string | null {
    const found = this.locate(ref, base);
    if (!found) return null;
    if ('data' in found)
      return DATA_TYPES[use].test(dataUrlType(found.data)) ? found.data.href : null;
    return this.resources.url(found.entry, use);
  }

  image(ref: string, base: string | null): string | null {
    return this.subresource(ref, base, 'image');
  }

  media(ref: string, base: string | null): string | null {
    return this.subresource(ref, base, 'media');
  }

  /** A `url()` in CSS: fragment-only references (`url(#clip)`) stay local to the document. */
  cssUrl(ref: string, base: string | null): string | null {
    const trimmed = ref.trim();
    if (trimmed.startsWith('#')) return trimmed;
    return this.subresource(trimmed, base, 'css-url');
  }

  /**
   * The rewritten text of a stylesheet (`<link rel=stylesheet>`, `@import`) from the archive, with
   * its own imports inlined, or `null`. Each stylesheet is rewritten once; an `@import` cycle is
   * cut where it closes.
   */
  stylesheet(ref: string, base: string | null): string | null {
    const entry = this.stylesheetEntry(ref, base);
    if (!entry) return null;
    const known = this.stylesheets.get(entry);
    if (known === 'pending') return null;
    if (known !== undefined) return known;
    this.stylesheets.set(entry, 'pending');
    const text = this.rewriteStylesheet(decodeStylesheet(entry), stylesheetBase(entry, base));
    this.stylesheets.set(entry, text);
    return text;
  }

  private stylesheetEntry(ref: string, base: string | null): ArchiveEntry | null {
    const found = this.locate(ref, base);
    if (!found) return null;
    if ('data' in found) {
      if (dataUrlType(found.data) !== 'text/css') return null;
      const href = found.data.href;
      let entry = this.dataStylesheets.get(href);
      if (!entry) {
        const body = dataUrlBytes(found.data);
        if (!body) return null;
        entry = { url: null, contentId: null, mimeType: 'text/css', charset: 'utf-8', body };
        this.dataStylesheets.set(href, entry);
      }
      return entry;
    }
    const { entry } = found;
    const looksLikeCss =
      entry.mimeType === 'text/css' ||
      (STYLESHEET_LIKE.has(entry.mimeType) && /\.css$/i.test(new URL(entry.url ?? 'x:/').pathname));
    // An HTML (or script, or image) resource never becomes a stylesheet.
    return looksLikeCss && !isHtmlEntry(entry) ? entry : null;
  }

  /** A stylesheet's text with every URL rewritten relative to `base` and its imports inlined. */
  rewriteStylesheet(css: string, base: string | null): string {
    return rewriteStylesheet(css, {
      url: (url) => this.cssUrl(url, base),
      import: (url) => this.stylesheet(url, base),
    });
  }

  /** A `style` attribute (or a presentation attribute holding `url()`). */
  rewriteDeclarations(css: string, base: string | null): string {
    return rewriteDeclarations(css, (url) => this.cssUrl(url, base));
  }

  /**
   * The href of a link (`<a>`, `<area>`, SVG `<a>`): `#fragment` for the same document, else an
   * absolute http(s) URL, else `null`.
   */
  link(ref: string, base: string | null, documentUrl: string | null): string | null {
    const trimmed = ref.trim();
    if (trimmed.startsWith('#')) return trimmed;
    const url = resolveUrl(trimmed, base);
    if (!url) return null;
    if (url.hash && documentUrl) {
      const page = resolveUrl(documentUrl, null);
      if (page && page.href.split('#')[0] === url.href.split('#')[0]) return url.hash;
    }
    return isHttpUrl(url) ? url.href : null;
  }

  /** The archived document (or image) a frame's `src` points at, or `null`. */
  frameEntry(ref: string, base: string | null): ArchiveEntry | null {
    const found = this.locate(ref, base);
    if (!found || !('entry' in found)) return null;
    const { entry } = found;
    return isHtmlEntry(entry) || entry.mimeType.startsWith('image/') ? entry : null;
  }
}
