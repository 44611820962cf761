import { describe, expect, it } from 'vitest';

import { resultLabels } from './api/search-webpages.ts';
import { parseSearchParams, toSearchParams, toSearchQuery, updateSearch } from './search-params.ts';

describe('search address', () => {
  it('reads q and the list filter names, and writes them back canonically', () => {
    const search = parseSearchParams(
      new URLSearchParams('q=+quokka+&liked=yes&read=maybe&label=b&label=a&ext=mhtml&page=2'),
    );
    expect(search).toEqual({
      q: 'quokka',
      liked: 'yes',
      read: 'any',
      annotated: 'any',
      host: [],
      labels: ['a', 'b'],
      ext: ['mhtml'],
      page: 2,
    });
    expect(toSearchParams(search).toString()).toBe(
      'q=quokka&liked=yes&label=a&label=b&ext=mhtml&page=2',
    );
    expect(toSearchQuery(search)).toEqual({
      q: 'quokka',
      liked: 'true',
      labels: ['a', 'b'],
      ext: ['mhtml'],
    });
    expect(updateSearch(search, { read: 'no' }).page).toBe(1);
  });
});

describe('resultLabels', () => {
  it('takes an array (Folio) or a JSON string (HamsterBase)', () => {
    expect(resultLabels(['a', 'b'])).toEqual(['a', 'b']);
    expect(resultLabels('["a","日本"]')).toEqual(['a', '日本']);
    expect(resultLabels('not json')).toEqual([]);
    expect(resultLabels('{"a":1}')).toEqual([]);
  });
});
