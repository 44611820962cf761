// Which kind of saved webpage a file is, from its name and from its first bytes. Pure: no DOM, no
// I/O, so it runs anywhere and is tested directly.
import type { components } from '../../../shared/contract/schema.gen.ts';

export type WebpageExt = components['schemas']['WebpageExt'];

/** What the first bytes look like: one of the three formats, or why it is none of them. */
export type SniffedKind = WebpageExt | 'empty' | 'binary' | 'text';

/** How many bytes of the file `sniffFormat` needs (more are ignored). */
export const SNIFF_BYTES = 64 * 1024;

export const FORMAT_LABELS: Record<WebpageExt, string> = {
  html: 'HTML',
  mhtml: 'MHTML',
  webarchive: 'Safari webarchive',
};

/** The `accept` attribute of the file input: every name suffix Folio takes. */
export const ACCEPTED_SUFFIXES = '.html,.htm,.xhtml,.mhtml,.mht,.webarchive';

const EXT_BY_SUFFIX: Record<string, WebpageExt> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.mhtml': 'mhtml',
  '.mht': 'mhtml',
  '.webarchive': 'webarchive',
};

/** The lowercased suffix of a file name (`'.html'`), or `''` when it has none. */
export function fileSuffix(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot === -1 || dot === name.length - 1) return '';
  return name.slice(dot).toLowerCase();
}

/** The format a file name promises, or `null` for any other suffix. */
export function formatFromFileName(name: string): WebpageExt | null {
  return EXT_BY_SUFFIX[fileSuffix(name)] ?? null;
}

const BPLIST_MAGIC = [0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30]; // "bplist00"

function startsWithBytes(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

/**
 * Whether bytes without a UTF-16 byte order mark are binary: any NUL byte, or more than 2% of C0
 * control characters other than tab, line feed, vertical tab, form feed, carriage return and escape.
 */
function looksBinary(bytes: Uint8Array): boolean {
  let controls = 0;
  for (const byte of bytes) {
    if (byte === 0) return true;
    if (byte < 0x20 && !(byte >= 0x09 && byte <= 0x0d) && byte !== 0x1b) controls++;
  }
  return controls > bytes.length * 0.02;
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

const HEADER_LINE = /^[!-9;-~]+:/;
const MULTIPART_CONTENT_TYPE = /^content-type:[ \t]*multipart\/[^\n]*/im;

/**
 * MIME: the text starts with a header block (name: value lines up to the first empty line) that has a
 * `Content-Type: multipart/…` header with a boundary parameter.
 */
function looksLikeMhtml(text: string): boolean {
  if (!HEADER_LINE.test(text)) return false;
  const end = text.search(/\r?\n\r?\n/);
  const headers = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const contentType = MULTIPART_CONTENT_TYPE.exec(headers);
  return contentType !== null && /;\s*boundary\s*=/i.test(contentType[0]);
}

/** An XML property list whose top dictionary has the webarchive's `WebMainResource` key. */
function looksLikeXmlWebarchive(text: string): boolean {
  return /^<\?xml\b/.test(text) && /<plist\b/.test(text) && text.includes('WebMainResource');
}

const HTML_MARKUP =
  /<!doctype\s+html|<(?:html|head|body)\b|<[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|<!--/i;

/**
 * Sniffs the start of a file (`SNIFF_BYTES` are enough): a binary plist or an XML plist with a
 * `WebMainResource` is a webarchive, a MIME multipart header block is MHTML, text with markup is
 * HTML. Otherwise says whether it is empty, binary or plain text.
 */
export function sniffFormat(head: Uint8Array): SniffedKind {
  const bytes = head.subarray(0, SNIFF_BYTES);
  if (bytes.length === 0) return 'empty';
  if (startsWithBytes(bytes, BPLIST_MAGIC)) return 'webarchive';
  const utf16 = utf16Encoding(bytes);
  if (!utf16 && looksBinary(bytes)) return 'binary';
  const utf8Bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  // windows-1252 maps every byte to one character, so ASCII structure survives whatever the charset.
  // TextDecoder drops a UTF-16 byte order mark itself.
  const decoded = new TextDecoder(utf16 ?? 'windows-1252').decode(
    utf8Bom ? bytes.subarray(3) : bytes,
  );
  const text = decoded.trimStart();
  if (utf16 && text.includes('\u0000')) return 'binary';
  if (looksLikeXmlWebarchive(text)) return 'webarchive';
  if (looksLikeMhtml(text)) return 'mhtml';
  if (HTML_MARKUP.test(text)) return 'html';
  return 'text';
}

/** What the upload page does with a file before sending it. */
export type FormatCheck =
  /** Name and content agree: send as `ext`. */
  | { readonly status: 'ok'; readonly ext: WebpageExt }
  /** The name says one format, the content another; the fix is to send as `detected`. */
  | {
      readonly status: 'mismatch';
      readonly named: WebpageExt;
      readonly detected: WebpageExt;
      readonly message: string;
    }
  /** The name has no supported suffix; `detected` is what the content looks like, if anything. */
  | {
      readonly status: 'unsupported';
      readonly suffix: string;
      readonly detected: WebpageExt | null;
      readonly message: string;
    }
  /** Supported name, but the content looks like none of the formats (binary or plain text). */
  | {
      readonly status: 'unrecognized';
      readonly named: WebpageExt;
      readonly detected: 'binary' | 'text';
      readonly message: string;
    }
  /** Name and content agree, but the file's end shows it was cut short: the server would refuse it. */
  | { readonly status: 'truncated'; readonly ext: WebpageExt; readonly message: string }
  /** Nothing to send. */
  | { readonly status: 'empty'; readonly message: string };

const TEXT_WITHOUT_FORMAT: Record<WebpageExt, string> = {
  html: 'no HTML markup found',
  mhtml: 'no MIME multipart headers found',
  webarchive: 'it is not a property list',
};

/**
 * Compares the format a file's name promises with what its first bytes look like; with the file's
 * end (`tail`), also whether it was cut short.
 */
export function checkFormat(fileName: string, head: Uint8Array, tail?: FileTail): FormatCheck {
  const sniffed = sniffFormat(head);
  const named = formatFromFileName(fileName);
  const suffix = fileSuffix(fileName);
  if (sniffed === 'empty') return { status: 'empty', message: 'The file is empty' };
  const detected = sniffed === 'binary' || sniffed === 'text' ? null : sniffed;
  if (!named) {
    return {
      status: 'unsupported',
      suffix,
      detected,
      message:
        `Unsupported file type (${suffix || 'no extension'}): ` +
        'Folio accepts HTML, MHTML and Safari webarchive',
    };
  }
  if (detected === named) {
    const truncated = tail ? detectTruncation(named, head, tail) : null;
    if (truncated) {
      return {
        status: 'truncated',
        ext: named,
        message: `This ${FORMAT_LABELS[named]} file is truncated: ${truncated}`,
      };
    }
    return { status: 'ok', ext: named };
  }
  if (detected) {
    return {
      status: 'mismatch',
      named,
      detected,
      message: `This file looks like ${FORMAT_LABELS[detected]} but is named ${suffix}`,
    };
  }
  const unrecognized = sniffed === 'binary' ? 'binary' : 'text';
  return {
    status: 'unrecognized',
    named,
    detected: unrecognized,
    message:
      `This file does not look like ${FORMAT_LABELS[named]}: ` +
      (unrecognized === 'binary' ? 'it contains binary data' : TEXT_WITHOUT_FORMAT[named]),
  };
}

/** The end of a file, for `detectTruncation`: its last `TAIL_BYTES` (or fewer) and its size. */
export interface FileTail {
  readonly bytes: Uint8Array;
  readonly size: number;
}

/** How many bytes from the end of a file `detectTruncation` needs. */
export const TAIL_BYTES = 4096;

const BPLIST_TRAILER = 32;

/** The top-level boundary an MHTML head declares, or `null`. */
function mhtmlBoundary(head: Uint8Array): string | null {
  const text = new TextDecoder('windows-1252').decode(head);
  const end = text.search(/\r?\n\r?\n/);
  const headers = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const contentType = MULTIPART_CONTENT_TYPE.exec(headers)?.[0];
  const match = contentType && /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** An 8-byte big-endian unsigned integer, or `null` beyond `Number.MAX_SAFE_INTEGER`. */
function readUint64(bytes: Uint8Array, pos: number): number | null {
  let value = 0;
  for (let k = 0; k < 8; k++) value = value * 256 + bytes[pos + k]!;
  return Number.isSafeInteger(value) ? value : null;
}

/** Why a binary plist's last 32 bytes are no trailer that fits a file of `size` bytes, or `null`. */
function bplistTrailerProblem(tail: FileTail): string | null {
  const { bytes, size } = tail;
  if (size < BPLIST_MAGIC.length + BPLIST_TRAILER + 1 || bytes.length < BPLIST_TRAILER) {
    return 'it ends before its trailer';
  }
  const at = bytes.length - BPLIST_TRAILER;
  const offsetSize = bytes[at + 6]!;
  const refSize = bytes[at + 7]!;
  const count = readUint64(bytes, at + 8);
  const top = readUint64(bytes, at + 16);
  const table = readUint64(bytes, at + 24);
  const trailerStart = size - BPLIST_TRAILER;
  const fits =
    offsetSize >= 1 &&
    offsetSize <= 8 &&
    refSize >= 1 &&
    refSize <= 8 &&
    count !== null &&
    count >= 1 &&
    top !== null &&
    top < count &&
    table !== null &&
    table >= BPLIST_MAGIC.length &&
    table <= trailerStart &&
    count <= (trailerStart - table) / offsetSize;
  return fits ? null : 'its end is not a property list trailer';
}

/**
 * Whether a file of format `ext` looks cut short (an interrupted download or copy), judged from its
 * first bytes and its end: an MHTML without its closing `--boundary--`, a binary webarchive
 * without a trailer that fits its size, an XML one without `</plist>`. Returns the reason, or
 * `null`. The server checks the whole file and refuses a truncated one (E0001).
 */
export function detectTruncation(ext: WebpageExt, head: Uint8Array, tail: FileTail): string | null {
  if (tail.size === 0) return null;
  const end = new TextDecoder('windows-1252').decode(tail.bytes);
  if (ext === 'mhtml') {
    const boundary = mhtmlBoundary(head);
    if (boundary === null) return null;
    return end.includes(`--${boundary}--`) ? null : 'its closing MIME boundary is missing';
  }
  if (ext === 'webarchive') {
    if (startsWithBytes(head, BPLIST_MAGIC)) return bplistTrailerProblem(tail);
    return /<\/plist>\s*$/.test(end) ? null : 'it does not end with </plist>';
  }
  return null;
}
