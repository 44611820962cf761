import { describe, expect, it } from 'vitest';

import { BINARY_MHTML_TYPE } from '../../shared/contract/media-types.ts';
import { isTheOriginal, originalFileEncoding, PREVIEW_FILE_ACCEPT } from './original-file.ts';

describe('the original file as the server sent it', () => {
  it('tells the file, an MHTML page in binary and the envelope apart', () => {
    expect(originalFileEncoding('application/octet-stream')).toBe('bytes');
    expect(originalFileEncoding(`${BINARY_MHTML_TYPE}; charset=binary`)).toBe('binary-mhtml');
    expect(originalFileEncoding('application/json; charset=utf-8')).toBe('base64-json');
    expect(originalFileEncoding(null)).toBe('base64-json');
  });

  it('counts only the file and its envelope as the original, for a download', () => {
    const blob = new Blob(['x']);
    expect(isTheOriginal({ encoding: 'bytes', blob })).toBe(true);
    expect(isTheOriginal({ encoding: 'base64-json', blob })).toBe(true);
    expect(isTheOriginal({ encoding: 'binary-mhtml', blob })).toBe(false);
  });

  it('asks for the MHTML in binary first, then the bytes, then the envelope', () => {
    expect(PREVIEW_FILE_ACCEPT.split(',').map((range) => range.trim())).toEqual([
      BINARY_MHTML_TYPE,
      'application/octet-stream;q=0.9',
      'application/json;q=0.5',
    ]);
  });
});
