// One model for the three formats: a main document and the resources saved with it, looked up by
// absolute URL or by MHTML Content-ID. Plain functions, no DOM: runs in the preview worker and tests.
import {
  decodeText,
  normalizeCharset,
  sniffHtmlCharset,
} from '../../../../shared/formats/bytes.ts';
import type { Mhtml } from '../../../../shared/formats/mhtml.ts';
import { PART_URL_HEADER } from '../../../../shared/contract/media-types.ts';
import { partLinkUrl } from '../../../api/original-file.ts';
import type { Webarchive, WebResource } from '../../../../shared/formats/webarchive.ts';

export interface ArchiveEntry {
  /** Absolute URL the resource was saved from (Content-Location, WebResourceURL), if any. */
  url: string | null;
  /** MHTML Content-ID without the angle brackets. */
  contentId: string | null;
  /** Lowercase MIME type without parameters. */
  mimeType: string;
  /** The declared charset label, if any. */
  charset: string | null;
  /** Its bytes; empty for a linked part. */
  body: Uint8Array;
  /** A linked part's address (linked MHTML from Folio's server), where its bytes are. */
  link?: string;
}

export interface Archive {
  /** The document to show. */
  main: ArchiveEntry;
  /** Everything saved with it (frames included), in archive order. */
  entries: ArchiveEntry[];
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export function isHtmlEntry(entry: ArchiveEntry): boolean {
  return HTML_TYPES.has(entry.mimeType);
}

/** An absolute URL string, resolving a relative one against `base`; `null` when impossible. */
function absolute(location: string | null, base: string | null): string | null {
  if (!location) return null;
  try {
    return (base ? new URL(location, base) : new URL(location)).href;
  } catch {
    return null;
  }
}

const SINGLEFILE_URL = /<!--[\s\S]*?Page saved with SingleFile[\s\S]*?\burl:\s*(\S+)[\s\S]*?-->/i;

/** The original address SingleFile writes in its header comment, if the document has one. */
export function singleFileUrl(head: string): string | null {
  const match = SINGLEFILE_URL.exec(head);
  return absolute(match?.[1] ?? null, null);
}

/** A plain HTML file (SingleFile and the like): a document without separate resources. */
export function archiveFromHtml(bytes: Uint8Array): Archive {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  return {
    main: {
      url: singleFileUrl(head),
      contentId: null,
      mimeType: 'text/html',
      charset: null,
      body: bytes,
    },
    entries: [],
  };
}

/**
 * An MHTML archive: the root HTML part is the document, every part is a resource. With
 * `partsBase` (linked MHTML, which the server wrote), a part whose `Folio-Part-Url` names a link
 * under it is that link; in any other archive the header means nothing.
 */
export function archiveFromMhtml(mhtml: Mhtml, partsBase?: string): Archive {
  const snapshot = absolute(mhtml.snapshotLocation, null);
  const toEntry = (part: Mhtml['parts'][number]): ArchiveEntry => {
    const entry: ArchiveEntry = {
      url: absolute(part.contentLocation, snapshot),
      contentId: part.contentId,
      mimeType: part.contentType,
      charset: part.charset,
      body: part.body,
    };
    const header = partsBase === undefined ? undefined : part.headers.get(PART_URL_HEADER);
    const link = header === undefined ? null : partLinkUrl(header.trim(), partsBase!);
    if (link !== null && part.body.length === 0) entry.link = link;
    return entry;
  };
  const entries = mhtml.parts.map(toEntry);
  const mainIndex = mhtml.parts.indexOf(mhtml.main);
  const main = entries[mainIndex] ?? toEntry(mhtml.main);
  if (!main.url) main.url = snapshot;
  return { main, entries };
}

function webResourceEntry(resource: WebResource): ArchiveEntry {
  return {
    url: absolute(resource.url, null),
    contentId: null,
    mimeType: resource.mimeType,
    charset: resource.textEncoding,
    body: resource.data,
  };
}

/**
 * A Safari webarchive: the main resource is the document; subresources and every subframe's main
 * resource and subresources (at any depth) are resources, found by URL.
 */
export function archiveFromWebarchive(archive: Webarchive): Archive {
  const entries: ArchiveEntry[] = [];
  const collect = (frame: Webarchive) => {
    for (const resource of frame.subresources) entries.push(webResourceEntry(resource));
    for (const subframe of frame.subframeArchives) {
      entries.push(webResourceEntry(subframe.mainResource));
      collect(subframe);
    }
  };
  collect(archive);
  return { main: webResourceEntry(archive.mainResource), entries };
}

/** Decodes an HTML entry: BOM, declared charset, `<meta charset>`, else UTF-8 (or windows-1252). */
export function decodeHtmlEntry(entry: ArchiveEntry): string {
  const declared = normalizeCharset(entry.charset) ?? sniffHtmlCharset(entry.body);
  if (declared) return decodeText(entry.body, declared);
  try {
    return decodeText(strictUtf8(entry.body), 'utf-8');
  } catch {
    // Not UTF-8 and nothing declared: what browsers assume for legacy pages.
    return decodeText(entry.body, 'windows-1252');
  }
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function strictUtf8(bytes: Uint8Array): Uint8Array {
  strictDecoder.decode(bytes);
  return bytes;
}

/** `%xx` escapes in upper case, so `%c3%a9` and `%C3%A9` find the same resource. */
function canonicalEscapes(href: string): string {
  return href.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Finds archive entries by absolute URL (with or without fragment, http/https alike) or `cid:`. */
export class ArchiveIndex {
  private readonly byUrl = new Map<string, ArchiveEntry>();
  private readonly byContentId = new Map<string, ArchiveEntry>();

  constructor(entries: readonly ArchiveEntry[]) {
    for (const entry of entries) {
      if (entry.url) {
        const key = canonicalEscapes(entry.url);
        this.add(this.byUrl, key, entry);
        this.add(this.byUrl, withoutFragment(key), entry);
      }
      if (entry.contentId) {
        this.add(this.byContentId, entry.contentId, entry);
        this.add(this.byContentId, entry.contentId.toLowerCase(), entry);
      }
    }
  }

  private add(map: Map<string, ArchiveEntry>, key: string, entry: ArchiveEntry): void {
    if (!map.has(key)) map.set(key, entry); // the first resource saved for a URL wins
  }

  /** The entry saved for the absolute URL `url`, or `null`. */
  lookup(url: URL): ArchiveEntry | null {
    if (url.protocol === 'cid:') {
      const id = safeDecode(url.href.slice(4)).replace(/^<|>$/g, '');
      const byId = this.byContentId.get(id) ?? this.byContentId.get(id.toLowerCase());
      if (byId) return byId;
    }
    const href = canonicalEscapes(url.href);
    const found = this.byUrl.get(href) ?? this.byUrl.get(withoutFragment(href));
    if (found) return found;
    // Pages upgraded to https (or saved over http) reference the other scheme.
    const other = url.protocol === 'http:' ? 'https:' : url.protocol === 'https:' ? 'http:' : null;
    if (other) {
      const swapped = other + href.slice(url.protocol.length);
      return this.byUrl.get(swapped) ?? this.byUrl.get(withoutFragment(swapped)) ?? null;
    }
    return null;
  }
}
