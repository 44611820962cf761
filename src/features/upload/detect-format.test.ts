import { describe, expect, it } from 'vitest';
import {
  checkFormat,
  fileSuffix,
  formatFromFileName,
  sniffFormat,
  SNIFF_BYTES,
} from './detect-format.ts';

const encoder = new TextEncoder();
const ascii = (text: string): Uint8Array => encoder.encode(text);

const HTML = '<!DOCTYPE html>\n<html><head><title>Hi</title></head><body><p>x</p></body></html>';
const MHTML = [
  'From: <Saved by Blink>',
  'Snapshot-Content-Location: https://example.com/',
  'Subject: Example',
  'Date: Fri, 21 Nov 2025 10:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/related;',
  '\ttype="text/html";',
  '\tboundary="----MultipartBoundary--abc----"',
  '',
  '',
  '------MultipartBoundary--abc----',
  'Content-Type: text/html',
  'Content-Location: https://example.com/',
  '',
  '<html><body>hi</body></html>',
  '------MultipartBoundary--abc------',
  '',
].join('\r\n');
const XML_WEBARCHIVE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
  '<dict>',
  '\t<key>WebMainResource</key>',
  '\t<dict><key>WebResourceData</key><data>PGh0bWw+PC9odG1sPg==</data></dict>',
  '</dict>',
  '</plist>',
].join('\n');

function bplist(): Uint8Array {
  // "bplist00" followed by a (truncated) object table: binary, with NUL bytes.
  return Uint8Array.from([...ascii('bplist00'), 0xd1, 0x01, 0x02, 0x5f, 0x10, 0x0f, 0, 0, 0, 8]);
}

describe('fileSuffix / formatFromFileName', () => {
  it('maps each supported suffix, case-insensitively', () => {
    expect(formatFromFileName('page.html')).toBe('html');
    expect(formatFromFileName('PAGE.HTM')).toBe('html');
    expect(formatFromFileName('a.b.xhtml')).toBe('html');
    expect(formatFromFileName('saved.mhtml')).toBe('mhtml');
    expect(formatFromFileName('saved.MHT')).toBe('mhtml');
    expect(formatFromFileName('Safari.webarchive')).toBe('webarchive');
  });

  it('returns null for other or missing suffixes', () => {
    expect(formatFromFileName('doc.pdf')).toBeNull();
    expect(formatFromFileName('README')).toBeNull();
    expect(formatFromFileName('page.html.gz')).toBeNull();
    expect(fileSuffix('README')).toBe('');
    expect(fileSuffix('trailing.')).toBe('');
    expect(fileSuffix('Report.PDF')).toBe('.pdf');
  });
});

describe('sniffFormat', () => {
  it('recognises HTML by its doctype, root elements or any tag', () => {
    expect(sniffFormat(ascii(HTML))).toBe('html');
    expect(sniffFormat(ascii('\n\n  <html lang="en"></html>'))).toBe('html');
    expect(sniffFormat(ascii('<body>text</body>'))).toBe('html');
    expect(sniffFormat(ascii('just a <p>paragraph</p>'))).toBe('html');
    expect(sniffFormat(ascii('<!-- saved by SingleFile --><div>x</div>'))).toBe('html');
  });

  it('recognises HTML after a UTF-8 or UTF-16 byte order mark', () => {
    expect(sniffFormat(Uint8Array.from([0xef, 0xbb, 0xbf, ...ascii('<html></html>')]))).toBe(
      'html',
    );
    const utf16le = [0xff, 0xfe];
    for (const ch of '<!doctype html><p>hi') utf16le.push(ch.charCodeAt(0), 0);
    expect(sniffFormat(Uint8Array.from(utf16le))).toBe('html');
  });

  it('recognises HTML in a legacy single-byte charset', () => {
    const latin1 = Uint8Array.from([...ascii('<html><body>caf'), 0xe9, ...ascii('</body></html>')]);
    expect(sniffFormat(latin1)).toBe('html');
  });

  it('recognises MHTML by a multipart Content-Type header with a boundary', () => {
    expect(sniffFormat(ascii(MHTML))).toBe('mhtml');
    const lf = 'MIME-Version: 1.0\nContent-Type: multipart/related; boundary=xyz\n\n--xyz\n';
    expect(sniffFormat(ascii(lf))).toBe('mhtml');
    const alternative = 'Content-Type: Multipart/Alternative; BOUNDARY="b"\r\n\r\n--b\r\n';
    expect(sniffFormat(ascii(alternative))).toBe('mhtml');
  });

  it('does not take MIME-looking text for MHTML without headers at the start or a boundary', () => {
    const noBoundary = 'MIME-Version: 1.0\r\nContent-Type: multipart/related\r\n\r\n<html></html>';
    expect(sniffFormat(ascii(noBoundary))).toBe('html');
    const inBody =
      '<html><body><pre>Content-Type: multipart/related; boundary=x</pre></body></html>';
    expect(sniffFormat(ascii(inBody))).toBe('html');
    // The multipart header must be in the first header block, not in a later part.
    const later =
      'Subject: hi\r\nContent-Type: text/plain\r\n\r\nContent-Type: multipart/mixed; boundary=q';
    expect(sniffFormat(ascii(later))).toBe('text');
  });

  it('recognises binary and XML webarchives', () => {
    expect(sniffFormat(bplist())).toBe('webarchive');
    expect(sniffFormat(ascii(XML_WEBARCHIVE))).toBe('webarchive');
  });

  it('does not take any XML plist or XHTML for a webarchive', () => {
    const plist = XML_WEBARCHIVE.replace('WebMainResource', 'CFBundleName');
    expect(sniffFormat(ascii(plist))).toBe('html');
    const xhtml = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"></html>';
    expect(sniffFormat(ascii(xhtml))).toBe('html');
  });

  it('reports empty files, binary data and plain text', () => {
    expect(sniffFormat(new Uint8Array(0))).toBe('empty');
    expect(
      sniffFormat(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    ).toBe('binary');
    expect(sniffFormat(ascii('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n\u0000'))).toBe('binary');
    const controls = new Uint8Array(200).fill(0x41);
    for (let i = 0; i < 10; i++) controls[i * 20] = 0x01;
    expect(sniffFormat(controls)).toBe('binary');
    expect(sniffFormat(ascii('Just some notes.\nNo markup here: 1 < 2 and 3 > 2.\n'))).toBe('text');
  });

  it('only looks at the first SNIFF_BYTES', () => {
    const padding = 'x'.repeat(SNIFF_BYTES);
    expect(sniffFormat(ascii(`${padding}<html>`))).toBe('text');
    expect(sniffFormat(ascii(`${padding.slice(10)}<html>`))).toBe('html');
  });
});

describe('checkFormat', () => {
  it('accepts a file whose name and content agree', () => {
    expect(checkFormat('a.html', ascii(HTML))).toEqual({ status: 'ok', ext: 'html' });
    expect(checkFormat('a.mht', ascii(MHTML))).toEqual({ status: 'ok', ext: 'mhtml' });
    expect(checkFormat('a.webarchive', bplist())).toEqual({ status: 'ok', ext: 'webarchive' });
  });

  it('explains a mismatch and offers the detected format', () => {
    expect(checkFormat('saved.html', ascii(MHTML))).toEqual({
      status: 'mismatch',
      named: 'html',
      detected: 'mhtml',
      message: 'This file looks like MHTML but is named .html',
    });
    expect(checkFormat('Page.MHTML', ascii(HTML))).toMatchObject({
      status: 'mismatch',
      detected: 'html',
      message: 'This file looks like HTML but is named .mhtml',
    });
    expect(checkFormat('x.htm', bplist())).toMatchObject({
      status: 'mismatch',
      detected: 'webarchive',
      message: 'This file looks like Safari webarchive but is named .htm',
    });
  });

  it('refuses unknown suffixes but says what the content looks like', () => {
    expect(checkFormat('report.pdf', ascii('%PDF-1.4\n\u0000\u0001'))).toEqual({
      status: 'unsupported',
      suffix: '.pdf',
      detected: null,
      message: 'Unsupported file type (.pdf): Folio accepts HTML, MHTML and Safari webarchive',
    });
    expect(checkFormat('page.txt', ascii(HTML))).toMatchObject({
      status: 'unsupported',
      detected: 'html',
    });
    expect(checkFormat('noext', ascii(MHTML))).toMatchObject({
      status: 'unsupported',
      detected: 'mhtml',
      message:
        'Unsupported file type (no extension): Folio accepts HTML, MHTML and Safari webarchive',
    });
  });

  it('flags binary data or plain text under a supported name', () => {
    expect(checkFormat('a.html', Uint8Array.from([1, 2, 0, 4]))).toEqual({
      status: 'unrecognized',
      named: 'html',
      detected: 'binary',
      message: 'This file does not look like HTML: it contains binary data',
    });
    expect(checkFormat('a.mhtml', ascii('hello world'))).toMatchObject({
      status: 'unrecognized',
      detected: 'text',
      message: 'This file does not look like MHTML: no MIME multipart headers found',
    });
    expect(checkFormat('a.webarchive', ascii('hello'))).toMatchObject({
      message: 'This file does not look like Safari webarchive: it is not a property list',
    });
  });

  it('reports an empty file whatever its name', () => {
    expect(checkFormat('a.html', new Uint8Array(0))).toEqual({
      status: 'empty',
      message: 'The file is empty',
    });
    expect(checkFormat('a.pdf', new Uint8Array(0))).toMatchObject({ status: 'empty' });
  });
});
