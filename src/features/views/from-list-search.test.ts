import { describe, expect, it } from 'vitest';

import { viewFromListSearch } from './from-list-search.ts';

describe('viewFromListSearch', () => {
  it('maps every list filter to a view filter, and the sort', () => {
    const search = new URLSearchParams(
      'liked=yes&read=no&annotated=yes&host=b.example&host=a.example:8080&label=tech&label=news&sort=title_asc',
    );
    const { request, unsupported } = viewFromListSearch(search);
    expect(request).toEqual({
      // The filters in words, cut at 80 characters.
      title: 'Liked and Unread and Highlights > 0 and Host is one of a.example:8080, b.exampl…',
      description: '',
      sort: 1,
      enableLimit: false,
      limit: 25,
      match: 'and',
      filters: [
        { type: 0, key: 'liked', operator: true },
        { type: 0, key: 'read-status', operator: false },
        { type: 1, key: 'annotation', operator: 2, rightOperand: 0 },
        { type: 2, key: 'host', operator: true, rightOperand: ['a.example:8080', 'b.example'] },
        { type: 2, key: 'label', operator: 0, rightOperand: ['news', 'tech'] },
      ],
    });
    expect(unsupported).toEqual([]);
  });

  it('maps "without highlights" to = 0 and the other sorts to their numbers', () => {
    const sorts: [string, number][] = [
      ['first_add_time_desc', 4],
      ['first_add_time_asc', 3],
      ['title_asc', 1],
      ['title_desc', 2],
      ['annotate_count_asc', 5],
      ['annotate_count_desc', 6],
      ['nonsense', 4],
    ];
    for (const [sort, number] of sorts) {
      const { request } = viewFromListSearch(
        new URLSearchParams({ annotated: 'no', liked: 'no', sort }),
      );
      expect(request.sort).toBe(number);
      expect(request.filters).toEqual([
        { type: 0, key: 'liked', operator: false },
        { type: 1, key: 'annotation', operator: 0, rightOperand: 0 },
      ]);
    }
  });

  it('says what a view cannot express (the format) and ignores invalid values', () => {
    const { request, unsupported } = viewFromListSearch(
      new URLSearchParams('ext=mhtml&ext=html&ext=pdf&liked=maybe&label=%20&page=3&per_page=60'),
    );
    expect(request.filters).toEqual([]);
    expect(request.title).toBe('All webpages');
    expect(request.sort).toBe(4);
    expect(unsupported).toEqual([
      'Format (html, mhtml): a view cannot filter by format, so it shows every format.',
    ]);
  });
});
