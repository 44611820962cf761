import { describe, expect, it } from 'vitest';

import type { components } from '../../../../shared/contract/schema.gen.ts';
import { listSelectionOf } from './preview-from-list.ts';

type ViewFilter = components['schemas']['ViewFilterInput'];

describe('listSelectionOf', () => {
  it('maps each view sort onto the list’s sort', () => {
    const sorts = [0, 1, 2, 3, 4, 5, 6] as const;
    expect(sorts.map((sort) => listSelectionOf({ sort })?.sort)).toEqual([
      'first_add_time_desc',
      'title_asc',
      'title_desc',
      'first_add_time_asc',
      'first_add_time_desc',
      'annotate_count_asc',
      'annotate_count_desc',
    ]);
    // The view's default sort (4) without one.
    expect(listSelectionOf({})).toEqual({ sort: 'first_add_time_desc' });
  });

  it('maps liked, read, "has highlights", hosts and labels (all ANDed) onto parameters', () => {
    expect(
      listSelectionOf({
        sort: 1,
        match: 'and',
        filters: [
          { type: 0, key: 'liked', operator: true },
          { type: 0, key: 'read-status', operator: false },
          { type: 1, key: 'annotation', operator: 2, rightOperand: 0 },
          { type: 2, key: 'host', operator: true, rightOperand: ['a.example', 'b.example:8080'] },
          { type: 2, key: 'label', operator: 0, rightOperand: ['x', 'y'] },
          { type: 2, key: 'label', operator: 1, rightOperand: ['z'] },
          { type: 2, key: 'label', operator: 0, rightOperand: ['x'] },
        ],
      }),
    ).toEqual({
      sort: 'title_asc',
      liked: 'true',
      read: 'false',
      annotated: 'true',
      host: ['a.example', 'b.example:8080'],
      labels: ['x', 'y', 'z'],
    });
  });

  it('reads the highlight counts that mean "has none" or "has some"', () => {
    const annotated = (operator: 0 | 1 | 2 | 3, rightOperand: number) =>
      listSelectionOf({ filters: [{ type: 1, key: 'annotation', operator, rightOperand }] })
        ?.annotated ?? null;
    expect(annotated(0, 0)).toBe('false');
    expect(annotated(3, 1)).toBe('false');
    expect(annotated(1, 0)).toBe('true');
    expect(annotated(2, 0)).toBe('true');
    expect(annotated(0, 2)).toBeNull();
    expect(annotated(2, 1)).toBeNull();
    expect(annotated(3, 5)).toBeNull();
  });

  it('has no selection for filters the list cannot express', () => {
    const none: ViewFilter[][] = [
      [{ type: 1, key: 'first-add-time', operator: 0, rightOperand: 1 }],
      [{ type: 0, key: 'link-duplicate', operator: true }],
      [{ type: 0, key: 'title-duplicate', operator: true }],
      [{ type: 2, key: 'host', operator: false, rightOperand: ['a.example'] }],
      [{ type: 2, key: 'host', operator: true, rightOperand: [] }],
      [{ type: 2, key: 'label', operator: 1, rightOperand: ['x', 'y'] }],
      [{ type: 2, key: 'label', operator: 2, rightOperand: ['x'] }],
      [{ type: 2, key: 'label', operator: 3, rightOperand: ['x'] }],
      // Twice the same parameter: ANDed hosts or opposite likes are not one list parameter.
      [
        { type: 0, key: 'liked', operator: true },
        { type: 0, key: 'liked', operator: false },
      ],
      [
        { type: 2, key: 'host', operator: true, rightOperand: ['a.example'] },
        { type: 2, key: 'host', operator: true, rightOperand: ['b.example'] },
      ],
    ];
    for (const filters of none) {
      expect(listSelectionOf({ filters }), JSON.stringify(filters)).toBeNull();
    }
  });

  it('maps "any" only with a single filter (the list ANDs its parameters)', () => {
    const liked = { type: 0, key: 'liked', operator: true } as const;
    const read = { type: 0, key: 'read-status', operator: true } as const;
    expect(listSelectionOf({ match: 'or', filters: [liked] })).toEqual({
      sort: 'first_add_time_desc',
      liked: 'true',
    });
    expect(listSelectionOf({ match: 'or', filters: [liked, read] })).toBeNull();
    expect(listSelectionOf({ match: 'or', filters: [] })).toBeNull();
  });

  it('keeps within the contract’s 100 repeated values', () => {
    const hosts = Array.from({ length: 101 }, (_, i) => `h${i}.example`);
    expect(
      listSelectionOf({ filters: [{ type: 2, key: 'host', operator: true, rightOperand: hosts }] }),
    ).toBeNull();
    const labels = Array.from({ length: 101 }, (_, i) => `l${i}`);
    expect(
      listSelectionOf({ filters: [{ type: 2, key: 'label', operator: 0, rightOperand: labels }] }),
    ).toBeNull();
  });
});
