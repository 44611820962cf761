import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  createChunkDecoder,
  decodeBase64,
  decodeBase64Bytes,
  decodeBase64Fallback,
  decodeLatin1,
  decodeQuotedPrintable,
  decodeText,
  encodeBase64,
  encodeBase64Fallback,
  normalizeCharset,
  sniffHtmlCharset,
} from './bytes.ts';
import { FormatError } from './errors.ts';

const ascii = (text: string) => new TextEncoder().encode(text);
const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Reference base64 through the platform's atob/btoa (test-only; the library does not use them). */
function referenceEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function referenceDecode(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

describe('base64', () => {
  it('decodes the RFC 4648 test vectors', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(utf8(decodeBase64(encoded))).toBe(plain);
      expect(utf8(decodeBase64Fallback(encoded))).toBe(plain);
      expect(encodeBase64(ascii(plain))).toBe(encoded);
      expect(encodeBase64Fallback(ascii(plain))).toBe(encoded);
    }
  });

  it('ignores ASCII whitespace anywhere and accepts missing padding', () => {
    expect(utf8(decodeBase64Fallback(' Zm9v\r\nYmFy\t\n'))).toBe('foobar');
    expect(utf8(decodeBase64Fallback('Zm9vYg'))).toBe('foob');
    expect(utf8(decodeBase64Fallback('Zm9vYmE'))).toBe('fooba');
    expect(utf8(decodeBase64Fallback('Zm9vYg= =\n'))).toBe('foob');
    expect(utf8(decodeBase64Bytes(ascii('Zm9v\nYmFy\n')))).toBe('foobar');
  });

  it.each([
    ['an invalid character', 'Zm9v*mFy'],
    ['URL-safe characters', 'Zm9v-_'],
    ['a dangling character', 'Zm9vY'],
    ['a short padding', 'Zg='],
    ['too much padding', 'Zm8=='],
    ['data after the padding', 'Zg==Zg=='],
    ['padding alone', '===='],
    ['a non-ASCII character', 'Zm9vé'],
  ])('rejects %s with a FormatError', (_, input) => {
    expect(() => decodeBase64Fallback(input)).toThrow(FormatError);
    expect(() => decodeBase64(input)).toThrow(FormatError);
  });

  it('reports the base64 format on errors', () => {
    try {
      decodeBase64('!!!!');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FormatError);
      expect((error as FormatError).format).toBe('base64');
    }
  });

  it('fallback and native (or platform) codecs agree on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const encoded = encodeBase64Fallback(bytes);
        expect(encoded).toBe(referenceEncode(bytes));
        expect(encodeBase64(bytes)).toBe(encoded);
        expect(decodeBase64Fallback(encoded)).toEqual(bytes);
        expect(decodeBase64(encoded)).toEqual(bytes);
        expect(referenceDecode(encoded)).toEqual(bytes);
        // MIME style: 76-character lines with CRLF.
        const wrapped = (encoded.match(/.{1,76}/g) ?? []).join('\r\n');
        expect(decodeBase64Fallback(wrapped)).toEqual(bytes);
        expect(decodeBase64(wrapped)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes across the fallback chunk boundary', () => {
    for (const size of [3 * 16_384 - 1, 3 * 16_384, 3 * 16_384 + 1, 3 * 16_384 + 2, 200_001]) {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7919) & 0xff);
      const encoded = encodeBase64Fallback(bytes);
      expect(encoded).toBe(referenceEncode(bytes));
      expect(decodeBase64Fallback(encoded)).toEqual(bytes);
    }
  });

  it('returns an exactly sized array', () => {
    const decoded = decodeBase64Fallback('Zm9v\nYmFy\n');
    expect(decoded.length).toBe(6);
    expect(decoded.buffer.byteLength).toBe(6);
  });
});

describe('base64 with native Uint8Array.fromBase64 / toBase64', () => {
  it('uses the native functions when present and wraps their errors in FormatError', async () => {
    const calls: string[] = [];
    const fromBase64 = (input: string) => {
      calls.push(input);
      if (input.includes('!')) throw new SyntaxError('native says no');
      return Uint8Array.of(1, 2, 3);
    };
    function toBase64(this: Uint8Array) {
      return `native:${this.length}`;
    }
    const fromBefore = Object.getOwnPropertyDescriptor(Uint8Array, 'fromBase64');
    const toBefore = Object.getOwnPropertyDescriptor(Uint8Array.prototype, 'toBase64');
    Object.defineProperty(Uint8Array, 'fromBase64', { configurable: true, value: fromBase64 });
    Object.defineProperty(Uint8Array.prototype, 'toBase64', {
      configurable: true,
      value: toBase64,
    });
    try {
      vi.resetModules();
      const fresh = await import('./bytes.ts');
      const { FormatError: FreshFormatError } = await import('./errors.ts');
      expect(fresh.decodeBase64('AQID')).toEqual(Uint8Array.of(1, 2, 3));
      expect(calls).toEqual(['AQID']);
      expect(() => fresh.decodeBase64('!!')).toThrow(FreshFormatError);
      expect(fresh.encodeBase64(Uint8Array.of(1, 2))).toBe('native:2');
      // The fallbacks stay available and independent of the native functions.
      expect(fresh.encodeBase64Fallback(Uint8Array.of(1, 2))).toBe('AQI=');
    } finally {
      if (fromBefore) Object.defineProperty(Uint8Array, 'fromBase64', fromBefore);
      else Reflect.deleteProperty(Uint8Array, 'fromBase64');
      if (toBefore) Object.defineProperty(Uint8Array.prototype, 'toBase64', toBefore);
      else Reflect.deleteProperty(Uint8Array.prototype, 'toBase64');
      vi.resetModules();
    }
  });
});

describe('decodeQuotedPrintable', () => {
  const qp = (text: string) => utf8(decodeQuotedPrintable(ascii(text)));

  it('decodes =XX escapes including multi-byte UTF-8', () => {
    expect(qp('a=3Db')).toBe('a=b');
    expect(qp('Gr=C3=BC=C3=9Fe')).toBe('Grüße');
    expect(qp('=F0=9F=90=B9')).toBe('🐹');
  });

  it('accepts lowercase hex', () => {
    expect(qp('caf=c3=a9')).toBe('café');
  });

  it('removes soft line breaks with CRLF, LF and transport padding', () => {
    expect(qp('abc=\r\ndef')).toBe('abcdef');
    expect(qp('abc=\ndef')).toBe('abcdef');
    expect(qp('abc= \t\r\ndef')).toBe('abcdef');
    expect(qp('=E2=\r\n=80=94')).toBe('—');
    expect(qp('end=')).toBe('end');
    expect(qp('end=\r')).toBe('end');
  });

  it('keeps hard line breaks', () => {
    expect(qp('line one\r\nline two\nline three')).toBe('line one\r\nline two\nline three');
  });

  it('keeps malformed escapes literally', () => {
    expect(qp('a=ZZb')).toBe('a=ZZb');
    expect(qp('a=3')).toBe('a=3');
    expect(qp('100% = 1')).toBe('100% = 1');
  });

  it('round-trips arbitrary bytes through a quoted-printable encoder', () => {
    const encode = (bytes: Uint8Array) => {
      let out = '';
      let line = 0;
      for (const byte of bytes) {
        const token =
          byte >= 0x21 && byte <= 0x7e && byte !== 0x3d
            ? String.fromCharCode(byte)
            : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
        if (line + token.length > 75) {
          out += '=\r\n';
          line = 0;
        }
        out += token;
        line += token.length;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1000 }), (bytes) => {
        expect(decodeQuotedPrintable(ascii(encode(bytes)))).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });
});

describe('decodeText', () => {
  it('decodes windows-1252, including its C1 mappings', () => {
    expect(decodeText(Uint8Array.of(0x80, 0x20, 0xe9, 0x93, 0x94), 'windows-1252')).toBe('€ é“”');
    expect(decodeText(Uint8Array.of(0xe9), 'ISO-8859-1')).toBe('é');
    expect(decodeText(Uint8Array.of(0xe9), 'latin1')).toBe('é');
  });

  it('decodes Shift_JIS under its aliases', () => {
    const nihongo = Uint8Array.of(0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea);
    expect(decodeText(nihongo, 'shift_jis')).toBe('日本語');
    expect(decodeText(nihongo, 'Shift-JIS')).toBe('日本語');
    expect(decodeText(nihongo, 'cp932')).toBe('日本語');
  });

  it('detects UTF-16 byte order marks and strips them', () => {
    expect(decodeText(Uint8Array.of(0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00))).toBe('hé');
    expect(decodeText(Uint8Array.of(0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9))).toBe('hé');
  });

  it('lets a byte order mark override the declared charset', () => {
    expect(decodeText(Uint8Array.of(0xfe, 0xff, 0x65, 0xe5), 'windows-1252')).toBe('日');
    expect(decodeText(Uint8Array.of(0xef, 0xbb, 0xbf, 0xc3, 0xa9), 'shift_jis')).toBe('é');
  });

  it('strips a UTF-8 byte order mark', () => {
    expect(decodeText(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe('a');
  });

  it('falls back to UTF-8 for unknown, empty or replacement labels', () => {
    const bytes = ascii('Grüße');
    expect(decodeText(bytes, 'no-such-charset')).toBe('Grüße');
    expect(decodeText(bytes, '')).toBe('Grüße');
    expect(decodeText(bytes, 'iso-2022-kr')).toBe('Grüße');
    expect(decodeText(bytes)).toBe('Grüße');
  });

  it('normalises labels', () => {
    expect(normalizeCharset(' "UTF-8" ')).toBe('utf-8');
    expect(normalizeCharset('utf8')).toBe('utf-8');
    expect(normalizeCharset('us-ascii')).toBe('windows-1252');
    expect(normalizeCharset('x-mac-roman')).toBe('macintosh');
    expect(normalizeCharset('unicode')).toBe('utf-16le');
    expect(normalizeCharset('bogus')).toBeNull();
    expect(normalizeCharset(null)).toBeNull();
  });

  it('replaces invalid sequences instead of throwing', () => {
    expect(decodeText(Uint8Array.of(0x61, 0xff, 0x62))).toBe('a\ufffdb');
  });
});

describe('createChunkDecoder', () => {
  it('joins a multi-byte sequence split across chunks', () => {
    const decode = createChunkDecoder('utf-8');
    const bytes = ascii('Grüße 🐹');
    expect(
      decode(bytes.subarray(0, 3)) + decode(bytes.subarray(3, 8)) + decode(bytes.subarray(8), true),
    ).toBe('Grüße 🐹');
  });

  it('honours a byte order mark in the first chunk over the label', () => {
    const decode = createChunkDecoder('windows-1252');
    expect(
      decode(Uint8Array.of(0xff, 0xfe, 0x68, 0x00)) + decode(Uint8Array.of(0xe9, 0x00), true),
    ).toBe('hé');
  });

  it('decodes windows-1252 chunk by chunk', () => {
    const decode = createChunkDecoder('cp1252');
    expect(decode(Uint8Array.of(0x80)) + decode(Uint8Array.of(0x93, 0xe9), true)).toBe('€“é');
  });
});

describe('decodeLatin1', () => {
  it('maps each byte to one character, also for long inputs', () => {
    const bytes = Uint8Array.from({ length: 20_000 }, (_, i) => i & 0xff);
    const text = decodeLatin1(bytes);
    expect(text.length).toBe(20_000);
    expect(text.charCodeAt(19_999)).toBe(19_999 & 0xff);
    expect(text.charCodeAt(0x80)).toBe(0x80);
  });
});

describe('sniffHtmlCharset', () => {
  const sniff = (html: string) => sniffHtmlCharset(ascii(html));

  it('reads <meta charset> in any quoting', () => {
    expect(sniff('<html><head><meta charset="windows-1252">')).toBe('windows-1252');
    expect(sniff("<meta charset='Shift_JIS'>")).toBe('shift_jis');
    expect(sniff('<META CHARSET=iso-8859-1>')).toBe('windows-1252');
  });

  it('reads http-equiv content-type', () => {
    expect(sniff('<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">')).toBe(
      'euc-jp',
    );
    expect(sniff('<meta content="text/html;charset=gb2312" http-equiv=content-type>')).toBe('gbk');
  });

  it('ignores metas in comments and unknown labels, and only looks at the first 4 KB', () => {
    expect(sniff('<!-- <meta charset="koi8-r"> --><meta charset="utf-8">')).toBe('utf-8');
    expect(sniff('<meta charset="klingon"><meta charset="koi8-r">')).toBe('koi8-r');
    expect(sniff(`<p>${'x'.repeat(5000)}</p><meta charset="koi8-r">`)).toBeNull();
    expect(sniff('<p>no declaration</p>')).toBeNull();
  });

  it('treats a declared UTF-16 as UTF-8, as the HTML prescan does', () => {
    expect(sniff('<meta charset="utf-16">')).toBe('utf-8');
  });

  it('prefers a byte order mark', () => {
    expect(sniffHtmlCharset(Uint8Array.of(0xff, 0xfe, 0x3c, 0x00))).toBe('utf-16le');
    expect(sniffHtmlCharset(Uint8Array.of(0xfe, 0xff, 0x00, 0x3c))).toBe('utf-16be');
    expect(sniffHtmlCharset(Uint8Array.of(0xef, 0xbb, 0xbf, 0x3c))).toBe('utf-8');
  });
});
