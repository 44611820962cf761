import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { TRI_STATES, WEBPAGE_EXTS } from '../../lib/webpage-filters.ts';
import {
  PER_PAGE_OPTIONS,
  WEBPAGE_SORTS,
  defaultListFilters,
  normalizeFilters,
  parseListSearch,
  toListQuery,
  toSearchParams,
  updateFilters,
  type ListFilters,
} from './filters.ts';

const full: ListFilters = {
  liked: 'yes',
  read: 'no',
  annotated: 'yes',
  host: ['a.example.com', 'b.example.com:8080'],
  labels: ['news', 'to read'],
  ext: ['html', 'webarchive'],
  sort: 'title_asc',
  page: 3,
  perPage: 60,
};

describe('list filters in the URL', () => {
  it('round-trips every field through the search parameters', () => {
    expect(parseListSearch(toSearchParams(full))).toEqual(full);
    expect(parseListSearch(toSearchParams(defaultListFilters))).toEqual(defaultListFilters);
  });

  it('round-trips any canonical filters', () => {
    const triState = fc.constantFrom(...TRI_STATES);
    const text = fc.string({ minLength: 1, maxLength: 20 });
    const filters = fc
      .record({
        liked: triState,
        read: triState,
        annotated: triState,
        host: fc.array(text, { maxLength: 4 }),
        labels: fc.array(text, { maxLength: 4 }),
        ext: fc.subarray([...WEBPAGE_EXTS]),
        sort: fc.constantFrom(...WEBPAGE_SORTS),
        page: fc.integer({ min: 1, max: 10_000 }),
        perPage: fc.constantFrom(...PER_PAGE_OPTIONS),
      })
      .map(normalizeFilters);
    fc.assert(
      fc.property(filters, (f) => {
        expect(parseListSearch(toSearchParams(f))).toEqual(f);
      }),
    );
  });

  it('leaves defaults out of the URL', () => {
    expect(toSearchParams(defaultListFilters).toString()).toBe('');
    expect(toSearchParams({ ...defaultListFilters, read: 'no' }).toString()).toBe('read=no');
  });

  it('writes readable parameters', () => {
    expect(toSearchParams(full).toString()).toBe(
      'liked=yes&read=no&annotated=yes&host=a.example.com&host=b.example.com%3A8080' +
        '&label=news&label=to+read&ext=html&ext=webarchive&sort=title_asc&page=3&per_page=60',
    );
  });

  it('falls back to defaults for invalid values', () => {
    const filters = parseListSearch(
      new URLSearchParams('liked=maybe&page=-2&per_page=7&sort=random&ext=pdf&ext=html&read=1'),
    );
    expect(filters).toEqual({ ...defaultListFilters, ext: ['html'] });
    expect(parseListSearch(new URLSearchParams('page=2.5')).page).toBe(1);
  });

  it('sends the user back to page 1 when a filter changes', () => {
    const changed = updateFilters({ ...full, page: 5 }, { labels: ['zeta', 'alpha'] });
    expect(changed.page).toBe(1);
    expect(changed.labels).toEqual(['alpha', 'zeta']);
  });

  it('maps the filters to the API query', () => {
    expect(toListQuery(full)).toEqual({
      liked: 'true',
      read: 'false',
      annotated: 'true',
      host: ['a.example.com', 'b.example.com:8080'],
      labels: ['news', 'to read'],
      ext: ['html', 'webarchive'],
      sort: 'title_asc',
    });
    expect(toListQuery(defaultListFilters)).toEqual({ sort: 'first_add_time_desc' });
  });
});
