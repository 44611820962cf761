// Byte-level helpers shared by the archive parsers. Pure ECMAScript plus the Encoding API, so the same
// code runs in Node, the browser main thread and Web Workers.
import { FormatError } from './errors.ts';

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INVALID = 255;
const B64_SPACE = 254;
const B64_PAD = 253;

const BASE64_DECODE_TABLE = (() => {
  const table = new Uint8Array(256).fill(B64_INVALID);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) table[BASE64_ALPHABET.charCodeAt(i)] = i;
  table[0x3d] = B64_PAD;
  // ASCII whitespace as the Encoding standard defines it: tab, LF, FF, CR, space.
  for (const code of [0x09, 0x0a, 0x0c, 0x0d, 0x20]) table[code] = B64_SPACE;
  return table;
})();

const BASE64_ENCODE_TABLE = Uint8Array.from(BASE64_ALPHABET, (c) => c.charCodeAt(0));

type NativeFromBase64 = (input: string) => Uint8Array;
type NativeToBase64 = (this: Uint8Array) => string;

/** `Uint8Array.fromBase64` (ES2026) where the engine has it. */
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: NativeFromBase64 }).fromBase64;
/** `Uint8Array.prototype.toBase64` (ES2026) where the engine has it. */
const nativeToBase64 = (Uint8Array.prototype as unknown as { toBase64?: NativeToBase64 }).toBase64;

const asciiEncoder = new TextEncoder();
const asciiDecoder = new TextDecoder();

/**
 * Decodes standard (not URL-safe) base64. ASCII whitespace anywhere is ignored and padding is
 * optional, as with `Uint8Array.fromBase64`; any other character, wrong padding or a dangling single
 * character throws a `FormatError`.
 */
export function decodeBase64(input: string): Uint8Array {
  if (nativeFromBase64) {
    try {
      return nativeFromBase64.call(Uint8Array, input);
    } catch (error) {
      throw new FormatError('base64', 'invalid base64 text', { cause: error });
    }
  }
  // Non-ASCII characters become bytes >= 0x80, which the table rejects.
  return decodeBase64Table(asciiEncoder.encode(input));
}

/** The fallback decoder, exported for tests so it can be compared with the native one. */
export function decodeBase64Fallback(input: string): Uint8Array {
  return decodeBase64Table(asciiEncoder.encode(input));
}

/** Bytes as the code points 0–255 (`latin1` is windows-1252 in the Encoding standard). */
const byteDecoder = new TextDecoder('latin1');

/**
 * Decodes base64 held as ASCII bytes (a MIME body). Same rules as `decodeBase64`: the engine's
 * decoder where it has one (a latin1 string of the bytes first: any byte that is not ASCII is not
 * base64 either way), else the table below, which does not make a string.
 */
export function decodeBase64Bytes(input: Uint8Array): Uint8Array {
  if (nativeFromBase64) return decodeBase64(byteDecoder.decode(input));
  return decodeBase64Table(input);
}

function decodeBase64Table(input: Uint8Array): Uint8Array {
  const length = input.length;
  const out = new Uint8Array(Math.floor((length * 3) / 4) + 3);
  let o = 0;
  let acc = 0;
  let n = 0;
  let i = 0;
  for (; i < length; i++) {
    const v = BASE64_DECODE_TABLE[input[i]!]!;
    if (v < 64) {
      acc = (acc << 6) | v;
      if (++n === 4) {
        out[o++] = (acc >> 16) & 0xff;
        out[o++] = (acc >> 8) & 0xff;
        out[o++] = acc & 0xff;
        acc = 0;
        n = 0;
      }
    } else if (v === B64_PAD) {
      break;
    } else if (v !== B64_SPACE) {
      throw new FormatError('base64', `invalid character at offset ${i}`);
    }
  }
  if (i < length) {
    // Padding: only '=' and whitespace may follow, and the '=' count must complete the quantum.
    let pads = 0;
    for (; i < length; i++) {
      const v = BASE64_DECODE_TABLE[input[i]!]!;
      if (v === B64_PAD) pads++;
      else if (v !== B64_SPACE)
        throw new FormatError('base64', `data after padding at offset ${i}`);
    }
    if (!((n === 2 && pads === 2) || (n === 3 && pads === 1))) {
      throw new FormatError('base64', 'incorrect padding');
    }
  }
  if (n === 1) throw new FormatError('base64', 'truncated input (dangling character)');
  if (n === 2) {
    out[o++] = (acc >> 4) & 0xff;
  } else if (n === 3) {
    out[o++] = (acc >> 10) & 0xff;
    out[o++] = (acc >> 2) & 0xff;
  }
  return o === out.length ? out : out.slice(0, o);
}

/** Encodes bytes as padded standard base64 on one line. */
export function encodeBase64(bytes: Uint8Array): string {
  if (nativeToBase64) return nativeToBase64.call(bytes);
  return encodeBase64Fallback(bytes);
}

const ENCODE_CHUNK = 3 * 16_384;

/** The fallback encoder (works chunk by chunk to keep temporary memory small), exported for tests. */
export function encodeBase64Fallback(bytes: Uint8Array): string {
  const parts: string[] = [];
  const codes = new Uint8Array((ENCODE_CHUNK / 3) * 4);
  const table = BASE64_ENCODE_TABLE;
  for (let start = 0; start < bytes.length; start += ENCODE_CHUNK) {
    const end = Math.min(bytes.length, start + ENCODE_CHUNK);
    let o = 0;
    let i = start;
    for (; i + 2 < end; i += 3) {
      const triple = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      codes[o++] = table[triple >> 18]!;
      codes[o++] = table[(triple >> 12) & 63]!;
      codes[o++] = table[(triple >> 6) & 63]!;
      codes[o++] = table[triple & 63]!;
    }
    if (end - i === 1) {
      const b = bytes[i]!;
      codes[o++] = table[b >> 2]!;
      codes[o++] = table[(b & 3) << 4]!;
      codes[o++] = 0x3d;
      codes[o++] = 0x3d;
    } else if (end - i === 2) {
      const pair = (bytes[i]! << 8) | bytes[i + 1]!;
      codes[o++] = table[pair >> 10]!;
      codes[o++] = table[(pair >> 4) & 63]!;
      codes[o++] = table[(pair & 15) << 2]!;
      codes[o++] = 0x3d;
    }
    parts.push(asciiDecoder.decode(codes.subarray(0, o)));
  }
  return parts.join('');
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57; // lowercase: not canonical, but seen in the wild
  return -1;
}

/**
 * Decodes a quoted-printable body (RFC 2045 §6.7): `=XX` escapes and soft line breaks (`=` followed by
 * optional transport padding and CRLF, LF or the end of the data). A malformed `=` is kept as is, like
 * mail readers do.
 */
export function decodeQuotedPrintable(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  const out = new Uint8Array(length);
  let o = 0;
  let i = 0;
  while (i < length) {
    const eq = bytes.indexOf(0x3d, i);
    const runEnd = eq === -1 ? length : eq;
    if (runEnd > i) {
      out.set(bytes.subarray(i, runEnd), o);
      o += runEnd - i;
    }
    if (eq === -1) break;
    const high = hexValue(bytes[eq + 1]);
    const low = hexValue(bytes[eq + 2]);
    if (high >= 0 && low >= 0) {
      out[o++] = (high << 4) | low;
      i = eq + 3;
      continue;
    }
    let j = eq + 1;
    while (j < length && (bytes[j] === 0x20 || bytes[j] === 0x09)) j++;
    if (j >= length) {
      i = length; // soft break at the very end
    } else if (bytes[j] === 0x0a) {
      i = j + 1;
    } else if (bytes[j] === 0x0d) {
      i = bytes[j + 1] === 0x0a ? j + 2 : j + 1;
    } else {
      out[o++] = 0x3d;
      i = eq + 1;
    }
  }
  return out.subarray(0, o);
}

/** Labels seen in archives that the WHATWG Encoding standard does not list. */
const CHARSET_ALIASES: Record<string, string> = {
  utf_8: 'utf-8',
  'utf-8n': 'utf-8',
  cp65001: 'utf-8',
  unicode: 'utf-16le',
  'unicode-1-1': 'utf-16le',
  utf_16: 'utf-16le',
  utf16: 'utf-16le',
  utf_16le: 'utf-16le',
  utf_16be: 'utf-16be',
  cp932: 'shift_jis',
  shiftjis: 'shift_jis',
  cp936: 'gbk',
  cp949: 'euc-kr',
  ks_c_5601: 'euc-kr',
  cp950: 'big5',
  cp1200: 'utf-16le',
  cp1201: 'utf-16be',
  macroman: 'macintosh',
  'mac-roman': 'macintosh',
};

const charsetCache = new Map<string, string | null>();

/**
 * Maps a charset label (any case, quoted or not, with aliases such as `cp932`) to the canonical
 * WHATWG encoding name `TextDecoder` reports, or `null` when the label is unknown or is one of the
 * "replacement" encodings TextDecoder refuses.
 */
export function normalizeCharset(label: string | null | undefined): string | null {
  if (!label) return null;
  const cleaned = label
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim()
    .toLowerCase();
  if (!cleaned) return null;
  const cached = charsetCache.get(cleaned);
  if (cached !== undefined) return cached;
  let encoding: string | null;
  try {
    encoding = new TextDecoder(CHARSET_ALIASES[cleaned] ?? cleaned).encoding;
  } catch {
    encoding = null;
  }
  if (charsetCache.size < 256) charsetCache.set(cleaned, encoding);
  return encoding;
}

/** The encoding named by a byte order mark at the start of `bytes`, if any. */
export function detectBom(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf-8', length: 3 };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

// windows-1252 bytes 0x80..0x9F (the rest of the range maps to the same code point). Decoded by hand
// because some engines (Node before 22) decode this label as ISO-8859-1.
const WINDOWS_1252_C1 = Uint16Array.of(
  0x20ac,
  0x81,
  0x201a,
  0x192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x2c6,
  0x2030,
  0x160,
  0x2039,
  0x152,
  0x8d,
  0x17d,
  0x8f,
  0x90,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x2dc,
  0x2122,
  0x161,
  0x203a,
  0x153,
  0x9d,
  0x17e,
  0x178,
);

function decodeWindows1252(bytes: Uint8Array): string {
  const chunk = 8192;
  const codes = new Uint16Array(Math.min(chunk, bytes.length));
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += chunk) {
    const end = Math.min(bytes.length, start + chunk);
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      codes[i - start] = byte >= 0x80 && byte < 0xa0 ? WINDOWS_1252_C1[byte - 0x80]! : byte;
    }
    parts.push(String.fromCharCode(...codes.subarray(0, end - start)));
  }
  return parts.join('');
}

/**
 * Decodes text. A byte order mark wins over `charset` and is stripped; an unknown or missing label
 * means UTF-8. Invalid sequences become U+FFFD (never throws).
 */
export function decodeText(bytes: Uint8Array, charset?: string | null): string {
  const bom = detectBom(bytes);
  const encoding = bom?.encoding ?? normalizeCharset(charset) ?? 'utf-8';
  const body = bom ? bytes.subarray(bom.length) : bytes;
  if (encoding === 'windows-1252') return decodeWindows1252(body);
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Bytes as a string with one char per byte (ISO-8859-1 in the strict sense, no Windows mapping). */
export function decodeLatin1(bytes: Uint8Array): string {
  const chunk = 8192;
  if (bytes.length <= chunk) return String.fromCharCode(...bytes);
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += chunk) {
    parts.push(String.fromCharCode(...bytes.subarray(i, i + chunk)));
  }
  return parts.join('');
}

const META_TAG = /<meta\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTRIBUTE = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;

function charsetFromMeta(attributes: string): string | null {
  let charset: string | undefined;
  let httpEquiv: string | undefined;
  let content: string | undefined;
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    if (name === 'charset' && charset === undefined) charset = value;
    else if (name === 'http-equiv' && httpEquiv === undefined) httpEquiv = value;
    else if (name === 'content' && content === undefined) content = value;
  }
  if (charset !== undefined) return charset;
  if (httpEquiv?.trim().toLowerCase() === 'content-type' && content !== undefined) {
    const match = /charset\s*=\s*["']?([^\s"';]+)/i.exec(content);
    if (match) return match[1]!;
  }
  return null;
}

/**
 * The encoding an HTML document declares: a byte order mark, else the first usable
 * `<meta charset>` / `<meta http-equiv="content-type" content="…; charset=…">` in the first 4 KB
 * (comments skipped). Follows the HTML prescan's rules that a declared UTF-16 means UTF-8 and
 * x-user-defined means windows-1252. Returns a canonical encoding name or `null`.
 */
export function sniffHtmlCharset(bytes: Uint8Array): string | null {
  const bom = detectBom(bytes);
  if (bom) return bom.encoding;
  const head = decodeLatin1(bytes.subarray(0, 4096)).replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const match of head.matchAll(META_TAG)) {
    const encoding = normalizeCharset(charsetFromMeta(match[1] ?? ''));
    if (!encoding) continue;
    if (encoding === 'utf-16le' || encoding === 'utf-16be') return 'utf-8';
    if (encoding === 'x-user-defined') return 'windows-1252';
    return encoding;
  }
  return null;
}

/**
 * An incremental decoder for text arriving in chunks (a multi-byte sequence may straddle two chunks).
 * Same charset rules as `decodeText`, except that the byte order mark is only looked at in the first
 * chunk. Call with `final: true` (and an empty chunk if need be) to flush.
 */
export function createChunkDecoder(
  charset?: string | null,
): (chunk: Uint8Array, final?: boolean) => string {
  let decoder: TextDecoder | null = null;
  let single1252 = false;
  let started = false;
  return (chunk, final = false) => {
    if (!started) {
      started = true;
      const bom = detectBom(chunk);
      const encoding = bom?.encoding ?? normalizeCharset(charset) ?? 'utf-8';
      if (bom) chunk = chunk.subarray(bom.length);
      if (encoding === 'windows-1252') single1252 = true;
      else decoder = new TextDecoder(encoding);
    }
    if (single1252 || !decoder) return decodeWindows1252(chunk);
    return decoder.decode(chunk, { stream: !final });
  };
}
