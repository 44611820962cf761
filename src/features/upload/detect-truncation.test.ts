// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { writeBplist } from '../../../test/support/bplist-writer.ts';
import type { PlistValue } from '../../../shared/formats/bplist.ts';
import { checkFormat, detectTruncation, SNIFF_BYTES, TAIL_BYTES } from './detect-format.ts';

const encoder = new TextEncoder();
const BOUNDARY = '----MultipartBoundary--nwGgbJoG6x2XRu0NHnivMlHTifEateOGHqiYsGCdS5----';

/** An MHTML file laid out as Chromium's "Save as MHTML" writes it (test/fixtures). */
const CHROMIUM_MHTML = encoder.encode(
  [
    'From: <Saved by Blink>',
    'Snapshot-Content-Location: https://folio.example/articles/a.html',
    'Subject: A',
    'Date: Sat, 21 Nov 2026 15:12:33 GMT',
    'MIME-Version: 1.0',
    'Content-Type: multipart/related;',
    '\ttype="text/html";',
    `\tboundary="${BOUNDARY}"`,
    '',
    '',
    `--${BOUNDARY}`,
    'Content-Type: text/html',
    'Content-ID: <frame-C14634A774B085880D92B5EC0AEAB543@mhtml.blink>',
    'Content-Transfer-Encoding: quoted-printable',
    'Content-Location: https://folio.example/articles/a.html',
    '',
    `<!DOCTYPE html><html><head><title>A</title></head><body>${'<p>words words</p>=\r\n'.repeat(300)}</body></html>`,
    `--${BOUNDARY}`,
    'Content-Type: image/png',
    'Content-Transfer-Encoding: base64',
    'Content-Location: https://folio.example/dot.png',
    '',
    'iVBORw0KGgo=',
    '',
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n'),
);

/** What the upload page reads of a file: its head, its tail and its size. */
function sample(bytes: Uint8Array) {
  return {
    head: bytes.subarray(0, SNIFF_BYTES),
    tail: { bytes: bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)), size: bytes.length },
  };
}

function truncation(ext: 'mhtml' | 'webarchive', bytes: Uint8Array): string | null {
  const { head, tail } = sample(bytes);
  return detectTruncation(ext, head, tail);
}

const WEBARCHIVE = writeBplist(
  new Map([
    [
      'WebMainResource',
      new Map<string, PlistValue>([
        [
          'WebResourceData',
          encoder.encode(
            `<html><head><title>W</title></head><body><p>${'word '.repeat(2000)}</p></body></html>`,
          ),
        ],
        ['WebResourceFrameName', ''],
        ['WebResourceMIMEType', 'text/html'],
        ['WebResourceTextEncodingName', 'UTF-8'],
        ['WebResourceURL', 'https://w.example/'],
      ]),
    ],
  ]),
);

const XML_WEBARCHIVE = encoder.encode(
  '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>WebMainResource</key><dict></dict></dict></plist>\n',
);

describe('detectTruncation', () => {
  it("accepts whole files: Chromium's MHTML, binary and XML webarchives", () => {
    expect(truncation('mhtml', CHROMIUM_MHTML)).toBeNull();
    expect(truncation('webarchive', WEBARCHIVE)).toBeNull();
    expect(truncation('webarchive', XML_WEBARCHIVE)).toBeNull();
  });

  it('finds an MHTML cut anywhere before its closing boundary', () => {
    const closing = CHROMIUM_MHTML.length - 80;
    for (const end of [700, Math.floor(CHROMIUM_MHTML.length / 2), closing]) {
      expect(truncation('mhtml', CHROMIUM_MHTML.subarray(0, end))).toBe(
        'its closing MIME boundary is missing',
      );
    }
  });

  it('finds a binary webarchive cut short, even by one byte', () => {
    for (const end of [700, Math.floor(WEBARCHIVE.length / 2), WEBARCHIVE.length - 1, 40]) {
      expect(truncation('webarchive', WEBARCHIVE.subarray(0, end))).not.toBeNull();
    }
  });

  it('finds an XML webarchive without its closing </plist>', () => {
    expect(truncation('webarchive', XML_WEBARCHIVE.subarray(0, 80))).toBe(
      'it does not end with </plist>',
    );
  });
});

describe('checkFormat with the file end', () => {
  it('says a truncated file is truncated before it is sent', () => {
    const cut = CHROMIUM_MHTML.subarray(0, 700);
    const { head, tail } = sample(cut);
    expect(checkFormat('page.mhtml', head, tail)).toEqual({
      status: 'truncated',
      ext: 'mhtml',
      message: 'This MHTML file is truncated: its closing MIME boundary is missing',
    });
    const whole = sample(CHROMIUM_MHTML);
    expect(checkFormat('page.mhtml', whole.head, whole.tail)).toEqual({
      status: 'ok',
      ext: 'mhtml',
    });
    const archive = sample(WEBARCHIVE.subarray(0, 700));
    expect(checkFormat('a.webarchive', archive.head, archive.tail).status).toBe('truncated');
  });

  it('without the file end, checks the format only', () => {
    expect(checkFormat('page.mhtml', CHROMIUM_MHTML.subarray(0, 700))).toEqual({
      status: 'ok',
      ext: 'mhtml',
    });
  });
});
