import { describe, expect, it } from 'vitest';

import { describeFilter, describeFilters, describeOrder } from './view-summary.ts';

describe('view summary', () => {
  it('describes every filter kind and operator as a readable chip', () => {
    const cases: [Parameters<typeof describeFilter>[0], string][] = [
      [
        { type: 2, key: 'host', operator: true, rightOperand: ['example.org'] },
        'Host is example.org',
      ],
      [
        { type: 2, key: 'host', operator: false, rightOperand: ['a.com:8080'] },
        'Host is not a.com:8080',
      ],
      [
        { type: 2, key: 'host', operator: true, rightOperand: ['a.com', 'b.com'] },
        'Host is one of a.com, b.com',
      ],
      [
        { type: 2, key: 'host', operator: false, rightOperand: ['a.com', 'b.com'] },
        'Host is none of a.com, b.com',
      ],
      [{ type: 0, key: 'liked', operator: true }, 'Liked'],
      [{ type: 0, key: 'liked', operator: false }, 'Not liked'],
      [{ type: 0, key: 'read-status', operator: true }, 'Read'],
      [{ type: 0, key: 'read-status', operator: false }, 'Unread'],
      [{ type: 1, key: 'annotation', operator: 0, rightOperand: 2 }, 'Highlights = 2'],
      [{ type: 1, key: 'annotation', operator: 1, rightOperand: 0 }, 'Highlights ≠ 0'],
      [{ type: 1, key: 'annotation', operator: 2, rightOperand: 0 }, 'Highlights > 0'],
      [{ type: 1, key: 'annotation', operator: 3, rightOperand: 5 }, 'Highlights < 5'],
      [
        { type: 1, key: 'first-add-time', operator: 0, rightOperand: 0 },
        'Added before the start of today',
      ],
      [
        { type: 1, key: 'first-add-time', operator: 1, rightOperand: 3 },
        'Added after the start of yesterday',
      ],
      [
        { type: 1, key: 'first-add-time', operator: 1, rightOperand: 1 },
        'Added after the start of this week',
      ],
      [
        { type: 1, key: 'first-add-time', operator: 1, rightOperand: 4 },
        'Added after the start of last week',
      ],
      [
        { type: 1, key: 'first-add-time', operator: 0, rightOperand: 2 },
        'Added before the start of this month',
      ],
      [
        { type: 1, key: 'first-add-time', operator: 0, rightOperand: 5 },
        'Added before the start of last month',
      ],
      [{ type: 2, key: 'label', operator: 0, rightOperand: ['news'] }, 'Has label news'],
      [
        { type: 2, key: 'label', operator: 0, rightOperand: ['news', 'tech'] },
        'Has all the labels news, tech',
      ],
      [
        { type: 2, key: 'label', operator: 1, rightOperand: ['news', 'tech'] },
        'Has any of the labels news, tech',
      ],
      [
        { type: 2, key: 'label', operator: 2, rightOperand: ['news', 'tech'] },
        'Lacks one of the labels news, tech',
      ],
      [
        { type: 2, key: 'label', operator: 3, rightOperand: ['news', 'tech'] },
        'Has none of the labels news, tech',
      ],
      [{ type: 2, key: 'label', operator: 3, rightOperand: ['news'] }, 'Lacks label news'],
      [{ type: 0, key: 'link-duplicate', operator: true }, 'Duplicate link'],
      [{ type: 0, key: 'link-duplicate', operator: false }, 'Unique link'],
      [{ type: 0, key: 'title-duplicate', operator: true }, 'Duplicate title'],
      [{ type: 0, key: 'title-duplicate', operator: false }, 'Unique title'],
    ];
    for (const [filter, text] of cases) expect(describeFilter(filter)).toBe(text);
  });

  it('joins the filters by the match', () => {
    expect(
      describeFilters({
        match: 'and',
        filters: [
          { type: 0, key: 'liked', operator: true },
          { type: 0, key: 'read-status', operator: false },
        ],
      }),
    ).toBe('Liked and Unread');
    expect(
      describeFilters({
        match: 'or',
        filters: [
          { type: 0, key: 'liked', operator: false },
          { type: 0, key: 'title-duplicate', operator: true },
        ],
      }),
    ).toBe('Not liked or Duplicate title');
  });

  it('says when a view has no filter, and names unknown ones', () => {
    expect(describeFilters({ match: 'and', filters: [] })).toBe('All webpages');
    const unknown = { type: 0, key: 'reading-time', operator: true } as never;
    expect(describeFilters({ match: 'and', filters: [unknown] })).toBe(
      'Unknown filter (reading-time)',
    );
  });

  it('describes sort and limit', () => {
    expect(describeOrder({ sort: 4, limit: 25, enableLimit: false })).toBe('Newest first');
    expect(describeOrder({ sort: 1, limit: 10, enableLimit: true })).toBe('Title A→Z, first 10');
    expect(describeOrder({ sort: 0, limit: 5, enableLimit: true })).toBe('Random, first 5');
    expect(describeOrder({ sort: 6, limit: 5, enableLimit: false })).toBe('Most highlights first');
  });
});
