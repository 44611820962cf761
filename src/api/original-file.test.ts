import { describe, expect, it } from 'vitest';

import { BINARY_MHTML_TYPE, LINKED_MHTML_TYPE } from '../../shared/contract/media-types.ts';
import {
  isTheOriginal,
  LINKED_PREVIEW_FILE_ACCEPT,
  originalFileEncoding,
  partLinksBase,
  partLinkUrl,
  PREVIEW_FILE_ACCEPT,
} from './original-file.ts';

describe('the original file as the server sent it', () => {
  it('tells the file, an MHTML page in binary and the envelope apart', () => {
    expect(originalFileEncoding('application/octet-stream')).toBe('bytes');
    expect(originalFileEncoding(`${BINARY_MHTML_TYPE}; charset=binary`)).toBe('binary-mhtml');
    expect(originalFileEncoding(LINKED_MHTML_TYPE)).toBe('linked-mhtml');
    expect(originalFileEncoding('application/json; charset=utf-8')).toBe('base64-json');
    expect(originalFileEncoding(null)).toBe('base64-json');
  });

  it('counts only the file and its envelope as the original, for a download', () => {
    const blob = new Blob(['x']);
    expect(isTheOriginal({ encoding: 'bytes', blob })).toBe(true);
    expect(isTheOriginal({ encoding: 'base64-json', blob })).toBe(true);
    expect(isTheOriginal({ encoding: 'binary-mhtml', blob })).toBe(false);
    expect(isTheOriginal({ encoding: 'linked-mhtml', blob })).toBe(false);
  });

  it('asks for the MHTML in binary first, then the bytes, then the envelope', () => {
    expect(PREVIEW_FILE_ACCEPT.split(',').map((range) => range.trim())).toEqual([
      BINARY_MHTML_TYPE,
      'application/octet-stream;q=0.9',
      'application/json;q=0.5',
    ]);
  });

  it('asks for linked parts first where the app can load them', () => {
    expect(LINKED_PREVIEW_FILE_ACCEPT.split(',').map((range) => range.trim())).toEqual([
      LINKED_MHTML_TYPE,
      `${BINARY_MHTML_TYPE};q=0.95`,
      'application/octet-stream;q=0.9',
      'application/json;q=0.5',
    ]);
  });
});

describe('where a linked part may be loaded from', () => {
  const app = 'http://127.0.0.1:8080';

  it('is the parts folder of a server of the app’s own origin, at any path', () => {
    expect(partLinksBase(`${app}/`, app)).toBe(`${app}/parts/`);
    expect(partLinksBase(`${app}/archive/`, app)).toBe(`${app}/archive/parts/`);
  });

  it('is nowhere for another origin, or an address a CSP cannot name as it is', () => {
    expect(partLinksBase('http://nas.local:8080/', app)).toBeNull();
    expect(partLinksBase('https://127.0.0.1:8080/', app)).toBeNull();
    expect(partLinksBase(`${app}/`, undefined)).toBeNull();
    expect(partLinksBase(`${app}/a;b/`, app)).toBeNull();
    expect(partLinksBase(`${app}/a,b/`, app)).toBeNull();
    expect(partLinksBase(`${app}/it's/`, app)).toBeNull();
    expect(partLinksBase('not a url', app)).toBeNull();
  });

  it('takes a part’s address only when it is a link under that folder', () => {
    const base = `${app}/parts/`;
    const link = 'parts/ab12/10/20/base64/1800000000/image/png/abc-_DEF';
    expect(partLinkUrl(link, base)).toBe(`${app}/${link}`);
    for (const other of [
      '../public/api/v1/webpages',
      'parts/../public/api/v1/webpages',
      'parts/%2e%2e/public/api/v1/webpages',
      'https://example.org/parts/x',
      '//example.org/parts/x',
      `${link}?x=1`,
      `${link}#x`,
      "parts/a'b",
      'parts/a(b)',
      'javascript:alert(1)',
      'public/parts/x',
    ]) {
      expect(partLinkUrl(other, base)).toBeNull();
    }
  });
});
