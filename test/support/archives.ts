// Fixture builders for server tests and Playwright journeys: small but realistic HTML, MHTML (shaped
// like Chromium's "Save as MHTML"), Safari webarchives and PNG images.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { PlistDict, PlistValue } from '../../shared/formats/bplist.ts';
import { writeBplist } from './bplist-writer.ts';
import { decodeText } from '../../shared/formats/bytes.ts';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Encodes `text` in `charset` for the charsets Node can write; other charsets need a Buffer. */
function encodeString(text: string | Buffer, charset?: string | null): Buffer {
  if (Buffer.isBuffer(text)) return text;
  const label = (charset ?? 'utf-8').trim().toLowerCase();
  if (['utf-8', 'utf8'].includes(label)) return Buffer.from(text, 'utf8');
  if (['iso-8859-1', 'latin1', 'windows-1252', 'us-ascii', 'ascii'].includes(label)) {
    return Buffer.from(text, 'latin1');
  }
  if (['utf-16le', 'utf-16'].includes(label)) return Buffer.from(text, 'utf16le');
  throw new Error(`encodeString: pass a Buffer for charset ${charset}`);
}

export interface HtmlOptions {
  title?: string;
  description?: string;
  /** Raw HTML for `<body>`; defaults to a heading and a paragraph. */
  body?: string;
  /**
   * Adds SingleFile's header comment with this `url:` line, written as SingleFile writes it: the
   * first child of `<html>` (single-file-core's `getPageData`, `insertSingleFileComment`).
   */
  singleFileUrl?: string;
  /** The SingleFile `saved date:` line; a Date is written as `Date#toString()` like SingleFile does. */
  savedDate?: Date | string;
  /**
   * Adds the mark of the web Chrome's "Save as, Webpage complete" writes between the doctype and
   * `<html>`: `<!-- saved from url=(0042)https://… -->` (Blink's WebFrameSerializer).
   */
  savedFromUrl?: string;
  /** Raw HTML appended to `<head>`. */
  extraHead?: string;
}

/** SingleFile's header comment text (single-file-core: `"\n " + COMMENT_HEADER + " \n url: " …`). */
function singleFileComment(url: string | undefined, savedDate: Date | string | undefined): string {
  let text = '\n Page saved with SingleFile \n url: ' + (url ?? '');
  text +=
    savedDate === undefined
      ? ' ' // SingleFile's removeSavedDate option
      : ` \n saved date: ${typeof savedDate === 'string' ? savedDate : savedDate.toString()}`;
  return `<!--${text}\n-->`;
}

/** A UTF-8 HTML document. */
export function makeHtml(options: HtmlOptions = {}): Buffer {
  const {
    title,
    description,
    body,
    singleFileUrl,
    savedDate,
    savedFromUrl,
    extraHead = '',
  } = options;
  const lines = ['<!DOCTYPE html>'];
  if (savedFromUrl !== undefined) {
    lines.push(
      `<!-- saved from url=(${String(savedFromUrl.length).padStart(4, '0')})${savedFromUrl} -->`,
    );
  }
  let html = '<html lang="en">';
  if (singleFileUrl !== undefined || savedDate !== undefined) {
    html += singleFileComment(singleFileUrl, savedDate);
  }
  lines.push(html + '<head>', '<meta charset="utf-8">');
  if (title !== undefined) lines.push(`<title>${escapeHtml(title)}</title>`);
  if (description !== undefined) {
    lines.push(`<meta name="description" content="${escapeHtml(description)}">`);
  }
  if (extraHead) lines.push(extraHead);
  lines.push('</head>', '<body>');
  lines.push(
    body ??
      `<h1>${escapeHtml(title ?? 'Untitled')}</h1>\n<p>This page was made by Folio's test fixtures.</p>`,
  );
  lines.push('</body>', '</html>', '');
  return Buffer.from(lines.join('\n'), 'utf8');
}

const QP_LINE = 76;

/**
 * Quoted-printable as Chromium writes it: CRLF hard line breaks, lines of at most 76 characters
 * ending in a `=` soft break, escapes never split.
 */
export function encodeQuotedPrintable(bytes: Uint8Array): string {
  const lines: string[] = [];
  let line = '';
  const push = (token: string) => {
    if (line.length + token.length > QP_LINE - 1) {
      lines.push(`${line}=`);
      line = '';
    }
    line += token;
  };
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x0d && bytes[i + 1] === 0x0a) continue; // the LF emits the break
    if (byte === 0x0a) {
      lines.push(line);
      line = '';
      continue;
    }
    const next = bytes[i + 1];
    const atLineEnd = next === undefined || next === 0x0a || next === 0x0d;
    const literal =
      (byte >= 0x21 && byte <= 0x7e && byte !== 0x3d) ||
      ((byte === 0x20 || byte === 0x09) && !atLineEnd);
    push(
      literal ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    );
  }
  lines.push(line);
  return lines.join('\r\n');
}

function encodeBase64Lines(bytes: Buffer): string {
  return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** RFC 2047 Q encoding in words of at most ~75 characters, as Chromium does for the Subject. */
function encodeSubject(subject: string): string {
  if (/^[\x20-\x7e]*$/.test(subject)) return subject;
  const words: string[] = [];
  let text = '';
  for (const byte of Buffer.from(subject, 'utf8')) {
    const token = /[A-Za-z0-9!*+\-/]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (text.length + token.length > 60) {
      words.push(`=?utf-8?Q?${text}?=`);
      text = '';
    }
    text += token;
  }
  words.push(`=?utf-8?Q?${text}?=`);
  return words.join('\r\n ');
}

export interface MhtmlResource {
  url: string;
  contentType: string;
  body: Buffer | string;
  contentId?: string;
  /** Defaults to quoted-printable for text types and base64 for everything else. */
  encoding?: 'base64' | 'quoted-printable';
}

export interface MhtmlOptions {
  /** The main document; a string is encoded in `charset` (UTF-8 by default). */
  html: string | Buffer;
  /** Snapshot-Content-Location and the main part's Content-Location; omitted when absent. */
  url?: string;
  /** The Date header; defaults to now. */
  date?: Date;
  /** Defaults to the document's `<title>` (Chromium's behaviour); omitted when there is none. */
  subject?: string;
  resources?: MhtmlResource[];
  htmlEncoding?: 'quoted-printable' | 'base64';
  /** Adds `charset=` to the main part's Content-Type. */
  charset?: string;
  /** Defaults to a random `----MultipartBoundary--…----` like Chromium's. */
  boundary?: string;
}

/** The document title the way Chromium puts it in the Subject (common entities decoded). */
function titleOf(html: string): string | undefined {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (raw === undefined) return undefined;
  const named: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
  };
  return raw
    .replace(
      /&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));/gi,
      (whole, hex?: string, dec?: string, name?: string) =>
        hex || dec
          ? String.fromCodePoint(hex ? parseInt(hex, 16) : Number(dec))
          : (named[name!.toLowerCase()] ?? whole),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

function isTextType(contentType: string): boolean {
  return /^(text\/|application\/(javascript|json|xml|xhtml\+xml)|image\/svg\+xml)/i.test(
    contentType,
  );
}

function encodePart(body: Buffer, encoding: 'base64' | 'quoted-printable'): string {
  // Chromium ends base64 bodies with an empty line before the next delimiter.
  return encoding === 'base64' ? `${encodeBase64Lines(body)}\r\n` : encodeQuotedPrintable(body);
}

/** An MHTML file shaped like Chromium's "Save as MHTML" output. */
export function makeMhtml(options: MhtmlOptions): Buffer {
  const {
    html,
    url,
    date = new Date(),
    resources = [],
    htmlEncoding = 'quoted-printable',
  } = options;
  const boundary =
    options.boundary ??
    `----MultipartBoundary--${randomBytes(32)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 42)}----`;
  const htmlBytes = encodeString(html, options.charset);
  const subject = options.subject ?? titleOf(decodeText(htmlBytes, options.charset));

  const head = ['From: <Saved by Blink>'];
  if (url !== undefined) head.push(`Snapshot-Content-Location: ${url}`);
  if (subject !== undefined) head.push(`Subject: ${encodeSubject(subject)}`);
  head.push(
    `Date: ${date.toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/related;',
    '\ttype="text/html";',
    `\tboundary="${boundary}"`,
    '',
    '',
  );

  const sections: string[] = [`${head.join('\r\n')}\r\n`];
  const mainHeaders = [
    `Content-Type: text/html${options.charset ? `; charset=${options.charset}` : ''}`,
    `Content-ID: <frame-${randomBytes(16).toString('hex').toUpperCase()}@mhtml.blink>`,
    `Content-Transfer-Encoding: ${htmlEncoding}`,
  ];
  if (url !== undefined) mainHeaders.push(`Content-Location: ${url}`);
  sections.push(
    `--${boundary}\r\n${mainHeaders.join('\r\n')}\r\n\r\n${encodePart(htmlBytes, htmlEncoding)}\r\n`,
  );
  for (const resource of resources) {
    const encoding =
      resource.encoding ?? (isTextType(resource.contentType) ? 'quoted-printable' : 'base64');
    const headers = [`Content-Type: ${resource.contentType}`];
    if (resource.contentId !== undefined) headers.push(`Content-ID: <${resource.contentId}>`);
    headers.push(`Content-Transfer-Encoding: ${encoding}`, `Content-Location: ${resource.url}`);
    const body = encodeString(resource.body);
    sections.push(
      `--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n${encodePart(body, encoding)}\r\n`,
    );
  }
  sections.push(`--${boundary}--\r\n`);
  return Buffer.from(sections.join(''), 'latin1');
}

/**
 * An MHTML whose header declares a `start` part that is not in the file (a capture that lost its
 * page part): whole at its end, so only a full parse can tell it is truncated.
 */
export function withMissingStartPart(mhtml: Buffer): Buffer {
  const text = mhtml.toString('latin1');
  const declared = text.replace(
    '\ttype="text/html";',
    '\ttype="text/html"; start="<missing@mhtml.blink>";',
  );
  if (declared === text) throw new Error('withMissingStartPart: no type parameter to extend');
  return Buffer.from(declared, 'latin1');
}

export interface WebarchiveResourceOptions {
  url: string;
  mimeType: string;
  data: Buffer | string;
  textEncoding?: string;
}

export interface WebarchiveOptions {
  /** The main resource; a string is encoded in `textEncoding` (UTF-8 by default). */
  html: string | Buffer;
  url: string;
  /** Defaults to `text/html`. */
  mimeType?: string;
  /** Defaults to `UTF-8`; `null` leaves the key out. */
  textEncoding?: string | null;
  /** Safari writes an empty frame name for the top frame. */
  frameName?: string;
  subresources?: WebarchiveResourceOptions[];
  subframes?: WebarchiveOptions[];
}

function archiveDict(options: WebarchiveOptions): PlistDict {
  const { html, url, mimeType = 'text/html', frameName = '' } = options;
  const textEncoding = options.textEncoding === undefined ? 'UTF-8' : options.textEncoding;
  const main: PlistDict = new Map<string, PlistValue>([
    ['WebResourceData', new Uint8Array(encodeString(html, textEncoding))],
    ['WebResourceFrameName', frameName],
    ['WebResourceMIMEType', mimeType],
  ]);
  if (textEncoding !== null) main.set('WebResourceTextEncodingName', textEncoding);
  main.set('WebResourceURL', url);
  const archive: PlistDict = new Map<string, PlistValue>([['WebMainResource', main]]);
  if (options.subresources?.length) {
    archive.set(
      'WebSubresources',
      options.subresources.map((resource) => {
        const dict: PlistDict = new Map<string, PlistValue>([
          ['WebResourceData', new Uint8Array(encodeString(resource.data, resource.textEncoding))],
          ['WebResourceMIMEType', resource.mimeType],
        ]);
        if (resource.textEncoding) dict.set('WebResourceTextEncodingName', resource.textEncoding);
        dict.set('WebResourceURL', resource.url);
        return dict;
      }),
    );
  }
  if (options.subframes?.length) {
    archive.set('WebSubframeArchives', options.subframes.map(archiveDict));
  }
  return archive;
}

/** A binary-plist Safari webarchive. */
export function makeWebarchive(options: WebarchiveOptions): Buffer {
  const bytes = writeBplist(archiveDict(options));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A truecolour PNG of random pixels: it does not compress, so it weighs about 3 bytes a pixel (a
 * photo's worth of bytes for its size, which a solid `makePng` never has).
 */
export function makeNoisePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = randomBytes((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0; // filter byte 0 = None
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    // Random bytes do not compress: the fastest level writes the same size.
    pngChunk('IDAT', deflateSync(raw, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid 8-bit truecolour PNG filled with one colour. */
export function makePng(
  width: number,
  height: number,
  rgb: readonly [number, number, number] = [255, 0, 0],
): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error('makePng: width and height must be positive integers');
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(rgb, y * stride + 1 + x * 3); // filter byte 0 = None
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
