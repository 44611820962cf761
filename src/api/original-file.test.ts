import { describe, expect, it } from 'vitest';

import { BINARY_MHTML_TYPE, originalFileEncoding, PREVIEW_FILE_ACCEPT } from './original-file.ts';

describe('the original file as the server sent it', () => {
  it('is read as bytes when it is the file or an MHTML page in binary, else as the envelope', () => {
    expect(originalFileEncoding('application/octet-stream')).toBe('bytes');
    expect(originalFileEncoding(`${BINARY_MHTML_TYPE}; charset=binary`)).toBe('bytes');
    expect(originalFileEncoding('application/json; charset=utf-8')).toBe('base64-json');
    expect(originalFileEncoding(null)).toBe('base64-json');
  });

  it('asks for the MHTML in binary first, then the bytes, then the envelope', () => {
    expect(PREVIEW_FILE_ACCEPT.split(',').map((range) => range.trim())).toEqual([
      BINARY_MHTML_TYPE,
      'application/octet-stream;q=0.9',
      'application/json;q=0.5',
    ]);
  });
});
