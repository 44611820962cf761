import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './bytes.ts';
import { FormatError } from './errors.ts';
import { decodeEncodedWords, parseContentType, parseMailDate, parseMhtml } from './mhtml.ts';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);
const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const BOUNDARY = '----MultipartBoundary--Xa8yXGq0xnSjB8TgtCb5r7bUXoI0a4ZmSjbCaJ2hYx----';
const PNG_BYTES = Uint8Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff);

/** A Chromium-shaped MHTML document; `eol` lets tests switch to LF-only files. */
function chromeLike(eol = '\r\n'): string {
  const base64 = (encodeBase64(PNG_BYTES).match(/.{1,76}/g) ?? []).join(eol);
  return [
    'From: <Saved by Blink>',
    'Snapshot-Content-Location: https://example.com/articles/1',
    'Subject: =?utf-8?Q?Gr=C3=BC=C3=9Fe=20aus=20K=C3=B6ln=20=E2=80=94=20=E6=97=A5=E6=9C?=',
    ' =?utf-8?Q?=AC=E8=AA=9E?=',
    'Date: Sat, 21 Nov 2026 10:11:12 -0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/related;',
    '\ttype="text/html";',
    `\tboundary="${BOUNDARY}"`,
    '',
    '',
    `--${BOUNDARY}`,
    'Content-Type: text/html',
    'Content-ID: <frame-1234@mhtml.blink>',
    'Content-Transfer-Encoding: quoted-printable',
    'Content-Location: https://example.com/articles/1',
    '',
    '<html><head><meta charset=3D"utf-8"><title>Gr=C3=BC=C3=9Fe</title></head><bo=',
    'dy><p class=3D"x">caf=C3=A9</p><img src=3D"https://example.com/a.png"></body>=',
    '</html>',
    `--${BOUNDARY}`,
    'Content-Type: image/png',
    'Content-Transfer-Encoding: base64',
    'Content-Location: https://example.com/a.png',
    '',
    base64,
    '',
    `--${BOUNDARY}`,
    'Content-Type: text/css; charset="utf-8"',
    'Content-Transfer-Encoding: quoted-printable',
    'Content-Location: https://example.com/site.css',
    '',
    'p::before { content: "=E2=86=92"; }',
    `--${BOUNDARY}--`,
    '',
  ].join(eol);
}

const MAIN_HTML =
  '<html><head><meta charset="utf-8"><title>Grüße</title></head><body><p class="x">café</p>' +
  '<img src="https://example.com/a.png"></body></html>';

/** A minimal multipart document around the given parts (each a header block + body). */
function mhtml(
  contentType: string,
  parts: string[],
  options: { close?: boolean } = {},
): Uint8Array {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? 'b';
  const lines = ['MIME-Version: 1.0', `Content-Type: ${contentType}`, ''];
  for (const part of parts) lines.push(`--${boundary}`, part);
  if (options.close !== false) lines.push(`--${boundary}--`);
  return bytesOf(lines.join('\r\n'));
}

describe('parseMhtml on Chromium-shaped input', () => {
  it('reads the top-level headers', () => {
    const archive = parseMhtml(bytesOf(chromeLike()));
    expect(archive.snapshotLocation).toBe('https://example.com/articles/1');
    expect(archive.date).toBe(Date.UTC(2026, 10, 21, 10, 11, 12));
    expect(archive.subject).toBe('Grüße aus Köln — 日本語');
    expect(archive.headers.get('subject')).toBe('Grüße aus Köln — 日本語');
    expect(archive.headers.get('from')).toBe('<Saved by Blink>');
    expect(archive.headers.get('content-type')).toBe(
      `multipart/related; type="text/html"; boundary="${BOUNDARY}"`,
    );
  });

  it('decodes only the HTML part when asked for the main part alone', () => {
    const archive = parseMhtml(bytesOf(chromeLike()), { parts: 'main' });
    expect(archive.parts).toEqual([archive.main]);
    expect(textOf(archive.main.body)).toBe(MAIN_HTML);
    expect(archive.subject).toBe('Grüße aus Köln — 日本語');
  });

  it('splits and decodes the parts', () => {
    const archive = parseMhtml(bytesOf(chromeLike()));
    expect(archive.parts.map((part) => part.contentType)).toEqual([
      'text/html',
      'image/png',
      'text/css',
    ]);
    const [html, png, css] = archive.parts;
    expect(archive.main).toBe(html);
    expect(textOf(html!.body)).toBe(MAIN_HTML);
    expect(html!.contentId).toBe('frame-1234@mhtml.blink');
    expect(html!.contentLocation).toBe('https://example.com/articles/1');
    expect(html!.charset).toBeNull();
    expect(png!.body).toEqual(PNG_BYTES);
    expect(png!.contentId).toBeNull();
    expect(css!.charset).toBe('utf-8');
    expect(textOf(css!.body)).toBe('p::before { content: "→"; }');
  });

  it('gives the same result for LF-only line ends', () => {
    const crlf = parseMhtml(bytesOf(chromeLike()));
    const lf = parseMhtml(bytesOf(chromeLike('\n')));
    expect(lf.subject).toBe(crlf.subject);
    expect(lf.date).toBe(crlf.date);
    expect(textOf(lf.main.body)).toBe(MAIN_HTML);
    expect(lf.parts[1]!.body).toEqual(PNG_BYTES);
    expect(textOf(lf.parts[2]!.body)).toBe('p::before { content: "→"; }');
  });

  it('ignores a leading byte order mark and blank lines', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x0d, 0x0a, ...bytesOf(chromeLike())]);
    expect(textOf(parseMhtml(withBom).main.body)).toBe(MAIN_HTML);
  });
});

describe('parseMhtml multipart handling', () => {
  it('accepts an unquoted boundary', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=simple-boundary', [
        'Content-Type: text/html\r\n\r\n<p>hi</p>',
      ]),
    );
    expect(textOf(archive.main.body)).toBe('<p>hi</p>');
  });

  it('unescapes a quoted boundary and reads RFC 2231 parameters', () => {
    const type = parseContentType(
      'Multipart/Related; boundary="a \\"b\\" c"; title*=utf-8\'\'caf%C3%A9',
    );
    expect(type.mime).toBe('multipart/related');
    expect(type.params.get('boundary')).toBe('a "b" c');
    expect(type.params.get('title')).toBe('café');
  });

  it('tolerates a missing closing delimiter', () => {
    const archive = parseMhtml(
      mhtml(
        'multipart/related; boundary="b1"',
        ['Content-Type: text/html\r\n\r\n<p>one</p>', 'Content-Type: text/plain\r\n\r\nlast part'],
        { close: false },
      ),
    );
    expect(archive.parts).toHaveLength(2);
    expect(textOf(archive.parts[1]!.body)).toBe('last part');
  });

  it('drops the preamble and the epilogue', () => {
    const text = [
      'Content-Type: multipart/related; boundary="b1"',
      '',
      'This is a multi-part message in MIME format.',
      '--b1',
      'Content-Type: text/html',
      '',
      '<p>body</p>',
      '--b1--',
      'epilogue text',
      '--b1',
      'Content-Type: text/html',
      '',
      '<p>not a part</p>',
    ].join('\r\n');
    const archive = parseMhtml(bytesOf(text));
    expect(archive.parts).toHaveLength(1);
    expect(textOf(archive.main.body)).toBe('<p>body</p>');
  });

  it('only splits on whole delimiter lines', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary="b1"', [
        'Content-Type: text/html\r\n\r\n<p>--b1x is not a delimiter</p>\r\n--b1x\r\n x--b1',
        'Content-Type: text/plain\r\n\r\nsecond',
      ]),
    );
    expect(archive.parts).toHaveLength(2);
    expect(textOf(archive.main.body)).toBe('<p>--b1x is not a delimiter</p>\r\n--b1x\r\n x--b1');
  });

  it('accepts transport padding after a delimiter', () => {
    const text =
      'Content-Type: multipart/related; boundary=b1\r\n\r\n--b1  \r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--b1-- \r\n';
    expect(textOf(parseMhtml(bytesOf(text)).main.body)).toBe('<p>x</p>');
  });

  it('keeps 8bit and binary bodies as they are', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', [
        'Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<p>Grüße</p>',
        'Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n\r\n\u0001\u0002',
      ]),
    );
    expect(textOf(archive.main.body)).toBe('<p>Grüße</p>');
    expect(archive.main.charset).toBe('UTF-8');
    expect(archive.parts[1]!.body).toEqual(Uint8Array.of(1, 2));
  });

  it('decodes a base64 HTML part', () => {
    const html = '<html><body>Grüße 🐹</body></html>';
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', [
        `Content-Type: text/html\r\nContent-Transfer-Encoding: BASE64\r\n\r\n${encodeBase64(bytesOf(html))}`,
      ]),
    );
    expect(textOf(archive.main.body)).toBe(html);
  });

  it('unfolds folded part headers', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', [
        'Content-Type: text/html;\r\n\tcharset="windows-1252"\r\nContent-Location:\r\n  https://example.com/long\r\n\r\n<p>x</p>',
      ]),
    );
    expect(archive.main.charset).toBe('windows-1252');
    expect(archive.main.contentLocation).toBe('https://example.com/long');
  });

  it('flattens a nested multipart/alternative', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=outer', [
        'Content-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/plain\r\n\r\nplain\r\n--inner\r\nContent-Type: text/html\r\n\r\n<p>rich</p>\r\n--inner--',
        'Content-Type: image/gif\r\nContent-Transfer-Encoding: base64\r\n\r\nR0lGOA==',
      ]),
    );
    expect(archive.parts.map((part) => part.contentType)).toEqual([
      'text/plain',
      'text/html',
      'image/gif',
    ]);
    expect(textOf(archive.main.body)).toBe('<p>rich</p>');
  });

  it('drops a resource whose base64 is broken but keeps the rest', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', [
        'Content-Type: text/html\r\n\r\n<p>x</p>',
        'Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n***not base64***',
        'Content-Type: image/gif\r\nContent-Transfer-Encoding: base64\r\n\r\nR0lGOA==',
      ]),
    );
    expect(archive.parts.map((part) => part.contentType)).toEqual(['text/html', 'image/gif']);
  });

  it('rejects an archive whose HTML part cannot be decoded', () => {
    const input = mhtml('multipart/related; boundary=b1', [
      'Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n<p>raw html</p>',
    ]);
    expect(() => parseMhtml(input)).toThrow(FormatError);
  });
});

describe('parseMhtml main part selection', () => {
  const parts = [
    'Content-Type: text/css\r\nContent-ID: <css@x>\r\n\r\nbody{}',
    'Content-Type: text/html\r\nContent-ID: <frame-a@x>\r\n\r\n<p>frame</p>',
    'Content-Type: text/html\r\nContent-ID: <root@x>\r\n\r\n<p>root</p>',
  ];

  it('uses the start parameter', () => {
    const archive = parseMhtml(mhtml('multipart/related; boundary=b1; start="<root@x>"', parts));
    expect(textOf(archive.main.body)).toBe('<p>root</p>');
    expect(archive.main).toBe(archive.parts[2]);
  });

  it('falls back to the first part of the declared type', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1; type="text/html"; start="<missing@x>"', parts),
    );
    expect(textOf(archive.main.body)).toBe('<p>frame</p>');
  });

  it('falls back to the first HTML part', () => {
    const archive = parseMhtml(mhtml('multipart/related; boundary=b1', parts));
    expect(textOf(archive.main.body)).toBe('<p>frame</p>');
  });

  it('accepts XHTML as the main part', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1; type="application/xhtml+xml"', [
        'Content-Type: application/xhtml+xml\r\n\r\n<html xmlns="http://www.w3.org/1999/xhtml"/>',
      ]),
    );
    expect(archive.main.contentType).toBe('application/xhtml+xml');
  });
});

describe('decodeEncodedWords', () => {
  it('decodes Q and B words in any case', () => {
    expect(decodeEncodedWords('=?UTF-8?q?caf=C3=A9_au_lait?=')).toBe('café au lait');
    expect(decodeEncodedWords('=?utf-8?B?R3LDvMOfZQ==?=')).toBe('Grüße');
    expect(decodeEncodedWords('=?iso-8859-1?Q?K=F6ln?=')).toBe('Köln');
  });

  it('drops whitespace between adjacent words and joins split characters', () => {
    expect(decodeEncodedWords('=?utf-8?Q?=E6=97=A5=E6=9C?=\r\n =?utf-8?Q?=AC?=')).toBe('日本');
    expect(decodeEncodedWords('=?utf-8?Q?a?= =?utf-8?Q?b?=')).toBe('ab');
  });

  it('keeps ordinary text and the spaces around it', () => {
    expect(decodeEncodedWords('Re: =?utf-8?Q?caf=C3=A9?= today')).toBe('Re: café today');
    expect(decodeEncodedWords('plain subject')).toBe('plain subject');
  });

  it('leaves malformed words alone', () => {
    expect(decodeEncodedWords('=?x-unknown?Q?abc?=')).toBe('=?x-unknown?Q?abc?=');
    expect(decodeEncodedWords('=?utf-8?B?***?=')).toBe('=?utf-8?B?***?=');
  });
});

describe('parseMailDate', () => {
  it('parses RFC 5322 dates with numeric and named zones', () => {
    expect(parseMailDate('Sat, 21 Nov 2026 10:11:12 -0000')).toBe(
      Date.UTC(2026, 10, 21, 10, 11, 12),
    );
    expect(parseMailDate('Sat, 21 Nov 2026 15:12:33 GMT')).toBe(Date.UTC(2026, 10, 21, 15, 12, 33));
    expect(parseMailDate('21 Nov 2026 10:11 +0130')).toBe(Date.UTC(2026, 10, 21, 8, 41, 0));
    expect(parseMailDate('Fri, 1 May 98 01:02:03 PDT')).toBe(Date.UTC(1998, 4, 1, 8, 2, 3));
  });

  it('falls back to Date.parse and returns null for junk', () => {
    expect(parseMailDate('2026-11-21T10:11:12Z')).toBe(Date.UTC(2026, 10, 21, 10, 11, 12));
    expect(parseMailDate('not a date')).toBeNull();
  });

  it('is exposed as the archive date, null when missing', () => {
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', ['Content-Type: text/html\r\n\r\n<p>x</p>']),
    );
    expect(archive.date).toBeNull();
    expect(archive.subject).toBeNull();
    expect(archive.snapshotLocation).toBeNull();
  });
});

describe('parseMhtml rejects what is not MHTML', () => {
  it.each([
    ['empty input', new Uint8Array(0)],
    ['blank lines', bytesOf('\r\n\r\n\n')],
    ['plain text', bytesOf('Just some notes.\nNothing else here.\n')],
    ['an HTML page', bytesOf('<!DOCTYPE html><html><head><title>x</title></head></html>')],
    ['a PNG', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13)],
    ['headers without Content-Type', bytesOf('From: someone\r\nSubject: hi\r\n\r\nbody')],
    ['a non-multipart message', bytesOf('Content-Type: text/html\r\n\r\n<p>x</p>')],
    ['a multipart without boundary', bytesOf('Content-Type: multipart/related\r\n\r\n<p>x</p>')],
    [
      'a multipart without parts',
      bytesOf('Content-Type: multipart/related; boundary=b1\r\n\r\njust a preamble'),
    ],
    [
      'a multipart without an HTML part',
      mhtml('multipart/related; boundary=b1', ['Content-Type: image/png\r\n\r\nxxxx']),
    ],
  ])('%s', (_, input) => {
    expect(() => parseMhtml(input)).toThrow(FormatError);
  });

  it('only ever throws FormatError for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        try {
          parseMhtml(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('only ever throws FormatError for corrupted archives', () => {
    const valid = bytesOf(chromeLike());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 20,
        }),
        fc.nat({ max: valid.length }),
        (edits, cut) => {
          const copy = valid.slice(0, cut);
          for (const [index, value] of edits) if (index < copy.length) copy[index] = value;
          try {
            const archive = parseMhtml(copy);
            expect(archive.parts).toContain(archive.main);
          } catch (error) {
            expect(error).toBeInstanceOf(FormatError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('handles a multi-megabyte image part', () => {
    const image = Uint8Array.from({ length: 3_000_000 }, (_, i) => (i * 31) & 0xff);
    const base64 = (encodeBase64(image).match(/.{1,76}/g) ?? []).join('\r\n');
    const archive = parseMhtml(
      mhtml('multipart/related; boundary=b1', [
        'Content-Type: text/html\r\n\r\n<p>x</p>',
        `Content-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64}`,
      ]),
    );
    const body = archive.parts[1]!.body;
    expect(body.length).toBe(image.length);
    // Element-wise toEqual is slow on megabytes; compare in one pass instead.
    expect(body.findIndex((byte, index) => byte !== image[index])).toBe(-1);
  });
});
