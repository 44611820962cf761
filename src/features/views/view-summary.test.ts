import { describe, expect, it } from 'vitest';

import { describeFilters, describeOrder } from './view-summary.ts';

describe('view summary', () => {
  it('describes every filter, joined by the match', () => {
    expect(
      describeFilters({
        match: 'and',
        filters: [
          { type: 0, key: 'liked', operator: true },
          { type: 0, key: 'read-status', operator: false },
          { type: 1, key: 'annotation', operator: 2, rightOperand: 0 },
          { type: 2, key: 'label', operator: 0, rightOperand: ['news', 'tech'] },
          { type: 2, key: 'host', operator: false, rightOperand: ['a.com:8080'] },
          { type: 1, key: 'first-add-time', operator: 1, rightOperand: 1 },
        ],
      }),
    ).toBe(
      'Liked and Unread and Highlights > 0 and Labels: has all of news, tech and ' +
        'Host is not a.com:8080 and Added since the start of this week',
    );
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
  });
});
