import { describe, expect, it } from 'vitest';

import {
  appendPage,
  appendWebpageFilters,
  hasWebpageFilters,
  noWebpageFilters,
  parsePage,
  parseWebpageFilters,
  toWebpageFilterQuery,
  type WebpageFilters,
} from './webpage-filters.ts';

const write = (filters: WebpageFilters) => {
  const params = new URLSearchParams();
  appendWebpageFilters(params, filters);
  return params;
};

describe('webpage filters in the URL (the library and search)', () => {
  it('round-trips the filters, and writes nothing for no filter', () => {
    // The library's and search's tests check the whole address, also for generated filters.
    const filters: WebpageFilters = {
      liked: 'no',
      read: 'yes',
      annotated: 'yes',
      host: ['a.example:8080', 'b.example'],
      labels: ['to read'],
      ext: ['mhtml', 'webarchive'],
    };
    expect(write(filters).toString()).toBe(
      'liked=no&read=yes&annotated=yes&host=a.example%3A8080&host=b.example' +
        '&label=to+read&ext=mhtml&ext=webarchive',
    );
    expect(parseWebpageFilters(write(filters))).toEqual(filters);
    expect(write(noWebpageFilters).toString()).toBe('');
  });

  it('reads invalid values as no filter and gives one canonical form', () => {
    const a = parseWebpageFilters(
      new URLSearchParams(
        'liked=maybe&read=1&ext=pdf&ext=webarchive&ext=html&label=b&label=a&label=a&label=+',
      ),
    );
    expect(a).toEqual({ ...noWebpageFilters, labels: ['a', 'b'], ext: ['html', 'webarchive'] });
    expect(a).toEqual(
      parseWebpageFilters(new URLSearchParams('label=a&label=b&ext=html&ext=webarchive')),
    );
    expect(parseWebpageFilters(new URLSearchParams(`host=${'x'.repeat(301)}`)).host).toEqual([]);
  });

  it('reads the page, 1 when missing or invalid, and leaves page 1 out', () => {
    expect(parsePage(new URLSearchParams('page=3'))).toBe(3);
    for (const bad of ['', 'page=0', 'page=-2', 'page=2.5', 'page=x']) {
      expect(parsePage(new URLSearchParams(bad))).toBe(1);
    }
    const params = new URLSearchParams();
    appendPage(params, 1);
    expect(params.toString()).toBe('');
    appendPage(params, 4);
    expect(params.toString()).toBe('page=4');
  });

  it('says whether anything is filtered, and maps the filters to the API query', () => {
    expect(hasWebpageFilters(noWebpageFilters)).toBe(false);
    expect(toWebpageFilterQuery(noWebpageFilters)).toEqual({});
    const filters: WebpageFilters = {
      liked: 'yes',
      read: 'no',
      annotated: 'any',
      host: ['a.example'],
      labels: [],
      ext: ['mhtml'],
    };
    expect(hasWebpageFilters(filters)).toBe(true);
    expect(hasWebpageFilters({ ...noWebpageFilters, annotated: 'no' })).toBe(true);
    expect(toWebpageFilterQuery(filters)).toEqual({
      liked: 'true',
      read: 'false',
      host: ['a.example'],
      ext: ['mhtml'],
    });
  });
});
