import { describe, expect, it } from 'vitest';

import { dataUrlBytes, dataUrlType, parseSrcset, serializeSrcset } from './urls.ts';

describe('parseSrcset', () => {
  it('splits candidates with descriptors', () => {
    expect(parseSrcset(' a.png 1x,b.png  2x , c.png 640w')).toEqual([
      { url: 'a.png', descriptors: '1x' },
      { url: 'b.png', descriptors: '2x' },
      { url: 'c.png', descriptors: '640w' },
    ]);
  });

  it('keeps commas inside URLs and ends a candidate on a trailing comma', () => {
    expect(parseSrcset('data:image/png;base64,AAA= 1x, x.png, y.png 2x, a,b.png')).toEqual([
      { url: 'data:image/png;base64,AAA=', descriptors: '1x' },
      { url: 'x.png', descriptors: '' },
      { url: 'y.png', descriptors: '2x' },
      { url: 'a,b.png', descriptors: '' },
    ]);
  });

  it('round-trips through serializeSrcset', () => {
    const candidates = parseSrcset('a.png 1x, b.png 2x');
    expect(serializeSrcset(candidates)).toBe('a.png 1x, b.png 2x');
  });
});

describe('data: URLs', () => {
  it('reads the MIME essence (text/plain when empty) and the bytes', () => {
    expect(dataUrlType(new URL('data:Image/PNG;base64,AAAA'))).toBe('image/png');
    expect(dataUrlType(new URL('data:,hello'))).toBe('text/plain');
    expect(new TextDecoder().decode(dataUrlBytes(new URL('data:text/css,a%7Bcolor:red%7D'))!)).toBe(
      'a{color:red}',
    );
    expect(new TextDecoder().decode(dataUrlBytes(new URL('data:text/css;base64,YXt9'))!)).toBe(
      'a{}',
    );
  });
});
