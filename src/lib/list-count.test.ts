import { describe, expect, it } from 'vitest';

import { countWebpages, listCount } from './list-count.ts';

describe('listCount', () => {
  it("says the server's total when it gives one, on any page", () => {
    expect(listCount({ page: 1, perPage: 30, shown: 30, hasNext: true, total: 1234 })).toBe(
      '1,234 webpages',
    );
    expect(listCount({ page: 3, perPage: 30, shown: 0, hasNext: false, total: 1 })).toBe(
      '1 webpage',
    );
    expect(listCount({ page: 1, perPage: 30, shown: 0, hasNext: false, total: 0 })).toBe(
      '0 webpages',
    );
  });

  it('without a total, says only what the fetched pages prove', () => {
    // A next page exists: at least what is shown up to here.
    expect(listCount({ page: 1, perPage: 30, shown: 30, hasNext: true })).toBe('30+ webpages');
    expect(listCount({ page: 2, perPage: 30, shown: 30, hasNext: true })).toBe('60+ webpages');
    // The last page: exact.
    expect(listCount({ page: 1, perPage: 30, shown: 7, hasNext: false })).toBe('7 webpages');
    expect(listCount({ page: 3, perPage: 10, shown: 4, hasNext: false })).toBe('24 webpages');
    // Past the end: unknown, so nothing rather than a wrong number.
    expect(listCount({ page: 5, perPage: 10, shown: 0, hasNext: false })).toBeNull();
  });
});

describe('countWebpages', () => {
  it('counts in words, with "+" for at least that many', () => {
    expect(countWebpages(1)).toBe('1 webpage');
    expect(countWebpages(5000)).toBe('5,000 webpages');
    expect(countWebpages(200, true)).toBe('200+ webpages');
  });
});
