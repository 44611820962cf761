import { describe, expect, it } from 'vitest';

import { MAX_PRELOADED_IMAGES, preloadedImageLinks } from './preload-part-links.ts';

const ORIGIN = 'http://127.0.0.1:8080';
const BASE = `${ORIGIN}/parts/`;
const CONTENT = `${ORIGIN}/public/api/v1/webpages/abc/content`;
const link = (n: number) => `parts/abc/${n}/${n + 1}/base64/1800000000/image/png/sig${n}`;

describe('the images a linked answer asks to load ahead', () => {
  it('are its preload links, resolved against the answer’s address, once each', () => {
    const header = [
      `<../../../../../${link(1)}>; rel=preload; as=image`,
      `<../../../../../${link(2)}>;rel="preload";as="image"`,
      `<../../../../../${link(1)}>; rel=preload; as=image`,
      `<${ORIGIN}/${link(3)}>; as=image; rel=preload`,
    ].join(', ');
    expect(preloadedImageLinks(header, CONTENT, BASE)).toEqual([
      `${ORIGIN}/${link(1)}`,
      `${ORIGIN}/${link(2)}`,
      `${ORIGIN}/${link(3)}`,
    ]);
  });

  it('resolve under a base path of the archive’s own', () => {
    const header = `<../../../../../${link(1)}>; rel=preload; as=image`;
    expect(
      preloadedImageLinks(
        header,
        `${ORIGIN}/folio/public/api/v1/webpages/abc/content`,
        `${ORIGIN}/folio/parts/`,
      ),
    ).toEqual([`${ORIGIN}/folio/${link(1)}`]);
  });

  it('leave out anything that is not an image to preload from the archive’s parts', () => {
    const header = [
      `<../../../../../${link(1)}>; rel=next`,
      `<../../../../../${link(2)}>; rel=preload; as=font`,
      '<https://example.org/parts/x>; rel=preload; as=image',
      '<../../../../../public/api/v1/webpages>; rel=preload; as=image',
      `<../../../../../${link(3)}?x=1>; rel=preload; as=image`,
      '<javascript:alert(1)>; rel=preload; as=image',
    ].join(', ');
    expect(preloadedImageLinks(header, CONTENT, BASE)).toEqual([]);
  });

  it(`are at most ${MAX_PRELOADED_IMAGES}`, () => {
    const header = Array.from(
      { length: 40 },
      (_, n) => `<../../../../../${link(n)}>; rel=preload; as=image`,
    ).join(', ');
    expect(preloadedImageLinks(header, CONTENT, BASE)).toHaveLength(MAX_PRELOADED_IMAGES);
  });
});
