import { describe, expect, it } from 'vitest';

import { pageWindow } from './page-window.ts';

describe('pageWindow', () => {
  it('asks for one more item than shown on the first page', () => {
    expect(pageWindow(1, 30)).toEqual({ page: 1, perPage: 31, offset: 0 });
  });

  it('always covers the shown items plus one, on an aligned API page', () => {
    for (const perPage of [30, 60, 100]) {
      for (let page = 1; page <= 300; page++) {
        const window = pageWindow(page, perPage);
        const apiStart = (window.page - 1) * window.perPage;
        const wanted = (page - 1) * perPage;
        expect(apiStart + window.offset).toBe(wanted);
        expect(window.offset + perPage + 1).toBeLessThanOrEqual(window.perPage);
        // Never more than about twice what is needed.
        expect(window.perPage).toBeLessThanOrEqual(2 * perPage + 1);
      }
    }
  });

  it('refuses pages and sizes below 1', () => {
    expect(() => pageWindow(0, 30)).toThrow(RangeError);
    expect(() => pageWindow(1, 0)).toThrow(RangeError);
  });
});
