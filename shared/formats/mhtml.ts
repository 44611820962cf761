// MHTML (RFC 2557, "Save as MHTML" in Chromium) reader. Works on bytes: only header blocks are turned
// into strings, part boundaries are found with byte searches and bodies are transfer-decoded from
// subarrays of the input, so multi-megabyte archives parse in milliseconds.
import {
  decodeBase64Bytes,
  decodeQuotedPrintable,
  decodeText,
  detectBom,
  normalizeCharset,
} from './bytes.ts';
import { FormatError } from './errors.ts';
import {
  ARCHIVE_MAX_DECODED_BYTES,
  MHTML_MAX_BOUNDARY_LENGTH,
  MHTML_MAX_NESTING,
  MHTML_MAX_PART_HEADER_BYTES,
  MHTML_MAX_PARTS,
  MHTML_MAX_TOP_HEADER_BYTES,
} from './limits.ts';

export interface MhtmlPart {
  /** Header names lowercased; folded lines unfolded; the first occurrence of a name wins. */
  headers: Map<string, string>;
  /** Lowercase MIME type without parameters; `text/plain` when the part has no Content-Type. */
  contentType: string;
  /** The Content-Type `charset` parameter as written (trimmed), or `null`. */
  charset: string | null;
  contentLocation: string | null;
  /** Content-ID without the surrounding `<>`. */
  contentId: string | null;
  /** The body after Content-Transfer-Encoding decoding (base64, quoted-printable or identity). */
  body: Uint8Array;
}

export interface Mhtml {
  /** Top-level headers; encoded-words in `subject` are decoded. */
  headers: Map<string, string>;
  /** The `Date` header in epoch ms, or `null` when absent or unparseable. */
  date: number | null;
  snapshotLocation: string | null;
  subject: string | null;
  /** Every leaf part in document order (nested multiparts are flattened). */
  parts: MhtmlPart[];
  /** The root HTML document; also present in `parts`. */
  main: MhtmlPart;
  /**
   * Why the archive looks cut short, or `null` when it is whole: a multipart without its closing
   * delimiter (`--boundary--`, which every writer ends with), or a `start` part that is missing.
   * Parsing still succeeds (a preview can show what is there); an upload refuses it.
   */
  truncated: string | null;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const HEADER_NAME = /^[!-9;-~]+$/;

const headerDecoder = new TextDecoder();
const asciiEncoder = new TextEncoder();

interface HeaderBlock {
  headers: Map<string, string>;
  /** Whether the first line of the block is a syntactically valid header field. */
  startsWithHeader: boolean;
  bodyStart: number;
}

/** Finds the blank line ending a header block that begins at `start` (bytes up to `end`). */
function findHeaderEnd(
  bytes: Uint8Array,
  start: number,
  end: number,
): { headerEnd: number; bodyStart: number } {
  // A block that starts with a blank line has no headers.
  if (bytes[start] === 0x0a) return { headerEnd: start, bodyStart: start + 1 };
  if (bytes[start] === 0x0d && bytes[start + 1] === 0x0a) {
    return { headerEnd: start, bodyStart: start + 2 };
  }
  let pos = start;
  while (pos < end) {
    const nl = bytes.indexOf(0x0a, pos);
    if (nl === -1 || nl >= end) break;
    const next = nl + 1;
    if (next < end && bytes[next] === 0x0a) return { headerEnd: nl, bodyStart: next + 1 };
    if (next + 1 < end && bytes[next] === 0x0d && bytes[next + 1] === 0x0a) {
      return { headerEnd: nl, bodyStart: next + 2 };
    }
    pos = next;
  }
  return { headerEnd: end, bodyStart: end };
}

/**
 * Reads the header block at `start`: the blank line that ends it is looked for in its first
 * `maxBytes` (plus the line break) only, and a larger block is refused with `tooLarge`.
 */
function readHeaderBlock(
  bytes: Uint8Array,
  start: number,
  end: number,
  maxBytes: number,
  tooLarge: string,
): HeaderBlock {
  const scanEnd = Math.min(end, start + maxBytes + 2);
  const { headerEnd, bodyStart } = findHeaderEnd(bytes, start, scanEnd);
  if (headerEnd - start > maxBytes || (headerEnd === scanEnd && scanEnd < end)) {
    throw new FormatError('mhtml', tooLarge);
  }
  const text = headerDecoder.decode(bytes.subarray(start, headerEnd));
  const headers = new Map<string, string>();
  let startsWithHeader = false;
  let currentName: string | null = null;
  let currentValue = '';
  const flush = () => {
    if (currentName !== null && !headers.has(currentName)) headers.set(currentName, currentValue);
    currentName = null;
  };
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    const first = line.charCodeAt(0);
    if (first === 0x20 || first === 0x09) {
      // Folded continuation line: unfold with a single space.
      if (currentName !== null) currentValue += ' ' + line.trim();
      continue;
    }
    flush();
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trimEnd() : '';
    if (!name || !HEADER_NAME.test(name)) continue;
    if (index === 0) startsWithHeader = true;
    currentName = name.toLowerCase();
    currentValue = line.slice(colon + 1).trim();
  }
  flush();
  return { headers, startsWithHeader, bodyStart };
}

export interface ContentType {
  /** Lowercase `type/subtype`. */
  mime: string;
  /** Parameter names lowercased; values unquoted. */
  params: Map<string, string>;
}

function decodeRfc2231(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  const bytes: number[] = [];
  const encoded = match[2]!;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-f]{2}$/i.test(encoded.slice(i + 1, i + 3))) {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c & 0xff);
    }
  }
  return decodeText(Uint8Array.from(bytes), match[1]);
}

/** Parses a Content-Type value: `type/subtype; name=value; name="quoted \" value"`. */
export function parseContentType(value: string): ContentType {
  const semicolon = value.indexOf(';');
  const mime = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  let i = semicolon === -1 ? value.length : semicolon + 1;
  while (i < value.length) {
    while (i < value.length && /[\s;]/.test(value[i]!)) i++;
    const nameStart = i;
    while (i < value.length && value[i] !== '=' && value[i] !== ';') i++;
    let name = value.slice(nameStart, i).trim().toLowerCase();
    if (value[i] !== '=') continue;
    i++;
    while (i < value.length && (value[i] === ' ' || value[i] === '\t')) i++;
    let paramValue = '';
    if (value[i] === '"') {
      i++;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === '\\' && i + 1 < value.length) i++;
        paramValue += value[i];
        i++;
      }
      i++; // closing quote
      while (i < value.length && value[i] !== ';') i++;
    } else {
      const valueStart = i;
      while (i < value.length && value[i] !== ';') i++;
      paramValue = value.slice(valueStart, i).trim();
    }
    if (name.endsWith('*')) {
      name = name.slice(0, -1);
      paramValue = decodeRfc2231(paramValue);
    }
    if (name && !params.has(name)) params.set(name, paramValue);
  }
  return { mime, params };
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

function decodeQEncoding(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5f) {
      bytes.push(0x20);
    } else if (c === 0x3d && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * Decodes RFC 2047 encoded-words (`=?utf-8?Q?…?=`, `=?utf-8?B?…?=`). Whitespace between adjacent
 * encoded-words is dropped and adjacent words in the same charset are joined before decoding, so a
 * character split across two words survives. Malformed words are left as written.
 */
export function decodeEncodedWords(value: string): string {
  let out = '';
  let last = 0;
  let pendingCharset: string | null = null;
  let pendingBytes: Uint8Array[] = [];
  const flushPending = () => {
    if (pendingCharset === null) return;
    const total = pendingBytes.reduce((sum, chunk) => sum + chunk.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const chunk of pendingBytes) {
      joined.set(chunk, offset);
      offset += chunk.length;
    }
    out += decodeText(joined, pendingCharset);
    pendingCharset = null;
    pendingBytes = [];
  };
  for (const match of value.matchAll(ENCODED_WORD)) {
    const gap = value.slice(last, match.index);
    const charset = match[1]!.split('*')[0]!;
    let bytes: Uint8Array | null;
    try {
      bytes =
        match[2]!.toLowerCase() === 'b'
          ? decodeBase64Bytes(asciiEncoder.encode(match[3]!))
          : decodeQEncoding(match[3]!);
    } catch {
      bytes = null;
    }
    if (bytes === null || normalizeCharset(charset) === null) {
      flushPending();
      out += gap + match[0];
    } else {
      const adjacent = pendingCharset !== null && /^\s*$/.test(gap);
      if (!adjacent || pendingCharset !== charset.toLowerCase()) {
        flushPending();
        if (!adjacent) out += gap;
      }
      pendingCharset = charset.toLowerCase();
      pendingBytes.push(bytes);
    }
    last = match.index + match[0].length;
  }
  flushPending();
  return out + value.slice(last);
}

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

const MAIL_DATE =
  /^\s*(?:[a-z]{3},?\s*)?(\d{1,2})\s+([a-z]{3})[a-z]*\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[a-z]{1,3})?/i;

/** Parses an RFC 5322 date (`Sat, 21 Nov 2026 10:11:12 -0000`) to epoch ms, else `Date.parse`. */
export function parseMailDate(value: string): number | null {
  const match = MAIL_DATE.exec(value);
  if (match) {
    const month = MONTHS[match[2]!.toLowerCase()];
    let year = Number(match[3]);
    if (match[3]!.length === 2) year += year < 50 ? 2000 : 1900;
    const zone = match[7];
    let offsetMinutes: number | undefined = 0;
    if (zone && /^[+-]/.test(zone)) {
      const sign = zone.startsWith('-') ? -1 : 1;
      offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
    } else if (zone) {
      offsetMinutes = ZONES[zone.toLowerCase()];
    }
    if (month !== undefined && offsetMinutes !== undefined) {
      const ms = Date.UTC(
        year,
        month,
        Number(match[1]),
        Number(match[4]),
        Number(match[5]),
        Number(match[6] ?? 0),
      );
      const result = ms - offsetMinutes * 60_000;
      if (Number.isFinite(result)) return result;
    }
  }
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function startsWithAt(bytes: Uint8Array, pos: number, needle: Uint8Array): boolean {
  if (pos + needle.length > bytes.length) return false;
  for (let k = 0; k < needle.length; k++) if (bytes[pos + k] !== needle[k]) return false;
  return true;
}

/**
 * Splits `bytes[start, end)` on `--boundary` delimiter lines. The line break before a delimiter
 * belongs to it; the preamble and the epilogue after `--boundary--` are dropped; a missing closing
 * delimiter ends the last part at `end` (and `closed` is false). More than `maxParts` parts is a
 * FormatError.
 */
function splitMultipart(
  bytes: Uint8Array,
  start: number,
  end: number,
  boundary: string,
  maxParts: number,
): { ranges: Array<[number, number]>; closed: boolean } {
  const delimiter = asciiEncoder.encode(`--${boundary}`);
  const ranges: Array<[number, number]> = [];
  let partStart = -1;
  let lineStart = start;
  while (lineStart < end) {
    if (bytes[lineStart] === 0x2d && startsWithAt(bytes, lineStart, delimiter)) {
      let p = lineStart + delimiter.length;
      const closing = p + 1 < end && bytes[p] === 0x2d && bytes[p + 1] === 0x2d;
      if (closing) p += 2;
      while (p < end && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++;
      const atLineEnd = p >= end || bytes[p] === 0x0a || bytes[p] === 0x0d;
      if (atLineEnd && p <= end) {
        if (partStart !== -1) {
          let partEnd = lineStart;
          if (partEnd > partStart && bytes[partEnd - 1] === 0x0a) partEnd--;
          if (partEnd > partStart && bytes[partEnd - 1] === 0x0d) partEnd--;
          ranges.push([partStart, partEnd]);
          if (ranges.length > maxParts) tooManyParts();
        }
        if (closing) return { ranges, closed: true };
        if (bytes[p] === 0x0d) p++;
        if (bytes[p] === 0x0a) p++;
        partStart = Math.min(p, end);
        lineStart = partStart;
        continue;
      }
    }
    const nl = bytes.indexOf(0x0a, lineStart);
    if (nl === -1 || nl >= end) break;
    lineStart = nl + 1;
  }
  if (partStart !== -1) ranges.push([partStart, end]);
  return { ranges, closed: false };
}

/** A leaf part as found: its headers, and where its body (still encoded) is in the input. */
export interface RawPart {
  headers: Map<string, string>;
  contentType: string;
  charset: string | null;
  contentLocation: string | null;
  contentId: string | null;
  bodyStart: number;
  bodyEnd: number;
}

function stripAngles(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
}

function tooManyParts(): never {
  throw new FormatError('mhtml', `more than ${MHTML_MAX_PARTS} parts`);
}

function collectParts(
  bytes: Uint8Array,
  start: number,
  end: number,
  boundary: string,
  depth: number,
  out: RawPart[],
  state: { closed: boolean },
): void {
  const { ranges, closed } = splitMultipart(
    bytes,
    start,
    end,
    boundary,
    MHTML_MAX_PARTS - out.length,
  );
  if (!closed) state.closed = false;
  for (const [partStart, partEnd] of ranges) {
    const block = readHeaderBlock(
      bytes,
      partStart,
      partEnd,
      MHTML_MAX_PART_HEADER_BYTES,
      `a part's header block is larger than ${MHTML_MAX_PART_HEADER_BYTES} bytes`,
    );
    const contentType = parseContentType(block.headers.get('content-type') ?? 'text/plain');
    const nestedBoundary = contentType.params.get('boundary');
    if (
      contentType.mime.startsWith('multipart/') &&
      nestedBoundary &&
      nestedBoundary.length <= MHTML_MAX_BOUNDARY_LENGTH &&
      depth < MHTML_MAX_NESTING
    ) {
      collectParts(bytes, block.bodyStart, partEnd, nestedBoundary, depth + 1, out, state);
      continue;
    }
    if (out.length >= MHTML_MAX_PARTS) tooManyParts();
    out.push(rawPart(block.headers, Math.min(block.bodyStart, partEnd), partEnd, contentType));
  }
}

/**
 * A leaf part from its header block (names lowercased, as `readHeaderBlock` makes them) and where
 * its body is; `contentType` when the caller has parsed it already.
 */
export function rawPart(
  headers: Map<string, string>,
  bodyStart: number,
  bodyEnd: number,
  contentType = parseContentType(headers.get('content-type') ?? 'text/plain'),
): RawPart {
  const location = headers.get('content-location')?.trim();
  const contentId = headers.get('content-id');
  return {
    headers,
    contentType: contentType.mime || 'text/plain',
    charset: contentType.params.get('charset')?.trim() || null,
    contentLocation: location || null,
    contentId: contentId ? stripAngles(contentId) || null : null,
    bodyStart,
    bodyEnd,
  };
}

function decodeBody(bytes: Uint8Array, part: RawPart): Uint8Array {
  const raw = bytes.subarray(part.bodyStart, part.bodyEnd);
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').trim().toLowerCase();
  if (encoding === 'base64') return decodeBase64Bytes(raw);
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(raw);
  return raw; // 7bit, 8bit, binary, absent or unknown: identity
}

function pickMain(parts: RawPart[], params: Map<string, string>): RawPart | undefined {
  const isHtml = (part: RawPart) => HTML_TYPES.has(part.contentType);
  const start = params.get('start');
  if (start) {
    const id = stripAngles(start);
    const byId = parts.find((part) => part.contentId === id && isHtml(part));
    if (byId) return byId;
  }
  const type = params.get('type')?.trim().toLowerCase();
  if (type && HTML_TYPES.has(type)) {
    const byType = parts.find((part) => part.contentType === type);
    if (byType) return byType;
  }
  return parts.find(isHtml);
}

export interface ParseMhtmlOptions {
  /**
   * `main`: only the root HTML part is decoded and returned in `parts` (reading a page's title and
   * text needs nothing else; its images and styles are most of the bytes). Default `all`.
   */
  parts?: 'all' | 'main';
}

/** An MHTML archive's structure: its headers and its leaf parts, their bodies still encoded. */
export interface MhtmlStructure {
  /** Top-level headers, as written (names lowercased, folded lines unfolded). */
  headers: Map<string, string>;
  contentType: ContentType;
  /** Every leaf part in document order (nested multiparts flattened); bodies as byte ranges. */
  parts: RawPart[];
  /** Whether the outermost multipart ends with its closing delimiter. */
  closed: boolean;
}

/**
 * Reads an MHTML archive's headers and finds its parts, without decoding them. Throws
 * `FormatError` for anything that is not a multipart MIME document, or that goes beyond a limit
 * of limits.ts (parts, header sizes).
 */
export function readMhtmlStructure(bytes: Uint8Array): MhtmlStructure {
  let start = detectBom(bytes)?.length ?? 0;
  while (start < bytes.length && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
  if (start >= bytes.length) throw new FormatError('mhtml', 'empty input');

  const top = readHeaderBlock(
    bytes,
    start,
    bytes.length,
    MHTML_MAX_TOP_HEADER_BYTES,
    'header block too large: not a MIME message',
  );
  if (!top.startsWithHeader) throw new FormatError('mhtml', 'does not start with a MIME header');
  const contentTypeValue = top.headers.get('content-type');
  if (!contentTypeValue) throw new FormatError('mhtml', 'no Content-Type header');
  const contentType = parseContentType(contentTypeValue);
  if (!contentType.mime.startsWith('multipart/')) {
    throw new FormatError(
      'mhtml',
      `top-level type is ${contentType.mime || 'empty'}, not multipart`,
    );
  }
  const boundary = contentType.params.get('boundary');
  if (!boundary) throw new FormatError('mhtml', 'multipart without a boundary');
  if (boundary.length > MHTML_MAX_BOUNDARY_LENGTH)
    throw new FormatError('mhtml', 'boundary too long');

  const parts: RawPart[] = [];
  const state = { closed: true };
  collectParts(bytes, top.bodyStart, bytes.length, boundary, 0, parts, state);
  return { headers: top.headers, contentType, parts, closed: state.closed };
}

/**
 * Parses an MHTML archive. Throws `FormatError` for anything that is not a multipart MIME document
 * with at least one HTML part, or that goes beyond a limit of limits.ts (parts, header sizes,
 * decoded bytes). A non-main part whose transfer encoding cannot be decoded is dropped
 * (a browser would just miss that resource); a broken main part rejects the archive.
 */
export function parseMhtml(bytes: Uint8Array, options: ParseMhtmlOptions = {}): Mhtml {
  return parseMhtmlStructure(bytes, readMhtmlStructure(bytes), options);
}

/** `parseMhtml` of `bytes` whose structure was read already (`readMhtmlStructure`), unchanged. */
export function parseMhtmlStructure(
  bytes: Uint8Array,
  structure: MhtmlStructure,
  options: ParseMhtmlOptions = {},
): Mhtml {
  const { headers: topHeaders, contentType, parts: rawParts, closed } = structure;
  if (rawParts.length === 0) throw new FormatError('mhtml', 'no MIME parts');
  const mainRaw = pickMain(rawParts, contentType.params);
  if (!mainRaw) throw new FormatError('mhtml', 'no HTML part');

  const parts: MhtmlPart[] = [];
  let main: MhtmlPart | undefined;
  const decoded = options.parts === 'main' ? [mainRaw] : rawParts;
  let decodedBytes = 0;
  for (const raw of decoded) {
    let body: Uint8Array;
    try {
      body = decodeBody(bytes, raw);
    } catch (error) {
      if (raw === mainRaw) {
        throw new FormatError('mhtml', 'the HTML part cannot be decoded', { cause: error });
      }
      continue;
    }
    decodedBytes += body.length;
    if (decodedBytes > ARCHIVE_MAX_DECODED_BYTES) {
      throw new FormatError(
        'mhtml',
        `the parts add up to more than ${ARCHIVE_MAX_DECODED_BYTES} bytes`,
      );
    }
    const part: MhtmlPart = {
      headers: raw.headers,
      contentType: raw.contentType,
      charset: raw.charset,
      contentLocation: raw.contentLocation,
      contentId: raw.contentId,
      body,
    };
    if (raw === mainRaw) main = part;
    parts.push(part);
  }
  if (!main) throw new FormatError('mhtml', 'no HTML part');

  const headers = new Map(topHeaders);
  const rawSubject = headers.get('subject');
  const subject = rawSubject === undefined ? null : decodeEncodedWords(rawSubject);
  if (subject !== null) headers.set('subject', subject);
  const dateValue = headers.get('date');
  const startId = contentType.params.get('start');
  let truncated: string | null = null;
  if (!closed) truncated = 'the closing boundary is missing';
  else if (startId && !rawParts.some((part) => part.contentId === stripAngles(startId))) {
    truncated = 'the start part it declares is missing';
  }
  return {
    truncated,
    headers,
    date: dateValue ? parseMailDate(dateValue) : null,
    snapshotLocation: headers.get('snapshot-content-location')?.trim() || null,
    subject,
    parts,
    main,
  };
}
