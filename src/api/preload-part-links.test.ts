import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  MAX_IMAGES_AT_ONCE,
  MAX_PRELOADED_IMAGES,
  preloadedImageLinks,
  preloadAhead,
  preloadImages,
  takePreloads,
  TAKE_WITHIN_MS,
} from './preload-part-links.ts';

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

/** Images as the preloads make them: what each was asked to load, finished by hand. */
class FakeImage extends EventTarget {
  static made: FakeImage[] = [];
  src = '';
  constructor() {
    super();
    FakeImage.made.push(this);
  }
  removeAttribute(name: string) {
    if (name === 'src') this.src = '';
  }
  finish() {
    this.dispatchEvent(new Event('load'));
  }
}

describe('loading the images ahead', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeImage.made = [];
  });

  const loadingNow = () => FakeImage.made.filter((image) => image.src !== '').map((i) => i.src);

  it(`loads ${MAX_IMAGES_AT_ONCE} at a time, the next as one finishes`, () => {
    vi.stubGlobal('Image', FakeImage);
    const links = [1, 2, 3, 4, 5].map((n) => `${ORIGIN}/${link(n)}`);
    preloadImages(links);
    expect(loadingNow()).toEqual(links.slice(0, MAX_IMAGES_AT_ONCE));
    FakeImage.made[1]!.finish();
    expect(FakeImage.made.map((image) => image.src)).toEqual(links.slice(0, 4));
    for (const image of [...FakeImage.made]) image.finish();
    expect(FakeImage.made.map((image) => image.src)).toEqual(links);
    FakeImage.made.at(-1)!.finish();
  });

  it('stops what has not loaded when the preview goes away, and leaves others’ alone', () => {
    vi.stubGlobal('Image', FakeImage);
    const mine = [1, 2, 3, 4].map((n) => `${ORIGIN}/${link(n)}`);
    const theirs = [`${ORIGIN}/${link(9)}`];
    const cancel = preloadImages(mine);
    preloadImages(theirs);
    cancel();
    // Mine are let go (their loads stopped), never started for the fourth; theirs starts.
    expect(loadingNow()).toEqual(theirs);
    expect(FakeImage.made).toHaveLength(MAX_IMAGES_AT_ONCE + 1);
    FakeImage.made.at(-1)!.finish();
  });

  it('leaves another preview’s images loading when one preview goes away', () => {
    vi.stubGlobal('Image', FakeImage);
    const theirs = [`${ORIGIN}/${link(9)}`];
    const mine = [1, 2, 3].map((n) => `${ORIGIN}/${link(n)}`);
    preloadImages(theirs);
    const cancel = preloadImages(mine);
    expect(loadingNow()).toEqual([...theirs, ...mine.slice(0, MAX_IMAGES_AT_ONCE - 1)]);
    cancel();
    expect(loadingNow()).toEqual(theirs);
    FakeImage.made[0]!.finish();
  });

  it('starts a file’s images ahead and hands them to its preview; a second loader run starts none', () => {
    vi.stubGlobal('Image', FakeImage);
    const links = [1, 2].map((n) => `${ORIGIN}/${link(n)}`);
    preloadAhead(links);
    preloadAhead(links);
    expect(loadingNow()).toEqual(links);
    const cancel = takePreloads(links);
    // Taken, not started again.
    expect(FakeImage.made).toHaveLength(2);
    preloadAhead(links);
    expect(FakeImage.made).toHaveLength(2);
    cancel();
    expect(loadingNow()).toEqual([]);
  });

  it('stops images started ahead that nobody takes in time, or when another file’s start', () => {
    vi.useFakeTimers();
    vi.stubGlobal('Image', FakeImage);
    const mine = [`${ORIGIN}/${link(1)}`];
    const theirs = [`${ORIGIN}/${link(2)}`];
    preloadAhead(mine);
    preloadAhead(theirs);
    expect(loadingNow()).toEqual(theirs);
    vi.advanceTimersByTime(TAKE_WITHIN_MS);
    expect(loadingNow()).toEqual([]);
    // Taken after that: started again for its preview.
    takePreloads(theirs);
    expect(loadingNow()).toEqual(theirs);
    FakeImage.made.at(-1)!.finish();
    vi.useRealTimers();
  });
});
