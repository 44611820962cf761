import { describe, expect, it } from 'vitest';

import { normalizeHost } from './filter-form.ts';
import { filterFormOf, filterFromForm, newFilterForm } from './filter-form.ts';
import {
  draftFromView,
  emptyDraft,
  parseLimit,
  sameFilters,
  selectionOf,
  toRequest,
  validateDraft,
} from './view-draft.ts';

describe('view drafts', () => {
  it('validates the title and the limit', () => {
    expect(validateDraft(emptyDraft)).toEqual({ title: 'A view needs a title.' });
    expect(validateDraft({ ...emptyDraft, title: '  ' }).title).toBe('A view needs a title.');
    expect(validateDraft({ ...emptyDraft, title: 'x'.repeat(501) }).title).toMatch(/at most 500/);
    const limited = { ...emptyDraft, title: 'ok', enableLimit: true };
    for (const bad of ['0', '-1', '2.5', '', 'ten', '100001']) {
      expect(validateDraft({ ...limited, limit: bad }).limit).toMatch(
        /whole number from 1 to 100,000/,
      );
    }
    expect(validateDraft({ ...limited, limit: '100000' })).toEqual({});
    // A bad limit that is switched off does not matter.
    expect(validateDraft({ ...limited, enableLimit: false, limit: 'ten' })).toEqual({});
    expect(parseLimit(' 12 ')).toBe(12);
  });

  it('builds the request, and the preview input without title or description', () => {
    const draft = {
      ...emptyDraft,
      title: '  Read later ',
      description: ' d ',
      sort: 0,
      enableLimit: true,
      limit: '7',
      match: 'or' as const,
      filters: [{ type: 0 as const, key: 'liked' as const, operator: true }],
    };
    expect(toRequest(draft)).toEqual({
      title: 'Read later',
      description: 'd',
      sort: 0,
      enableLimit: true,
      limit: 7,
      match: 'or',
      filters: draft.filters,
    });
    expect(selectionOf({ ...draft, limit: 'x' })).toEqual({
      sort: 0,
      enableLimit: false,
      limit: 25,
      match: 'or',
      filters: draft.filters,
    });
  });

  it('compares filters without their ids, in order', () => {
    const view = {
      id: 'v',
      title: 't',
      description: '',
      createdAt: 0,
      enableLimit: false,
      limit: 25,
      sort: 4,
      match: 'and' as const,
      filters: [
        {
          id: 'a',
          type: 2 as const,
          key: 'label' as const,
          operator: 1 as const,
          rightOperand: ['x'],
        },
        { id: 'b', type: 0 as const, key: 'liked' as const, operator: true },
      ],
    };
    const draft = draftFromView(view);
    expect(draft.filters).toEqual([
      { type: 2, key: 'label', operator: 1, rightOperand: ['x'] },
      { type: 0, key: 'liked', operator: true },
    ]);
    expect(sameFilters(view.filters, draft.filters)).toBe(true);
    expect(sameFilters(view.filters, [...draft.filters].reverse())).toBe(false);
    expect(sameFilters(view.filters, draft.filters.slice(1))).toBe(false);
    expect(
      sameFilters(view.filters, [
        { type: 2, key: 'label', operator: 1, rightOperand: ['y'] },
        { type: 0, key: 'liked', operator: true },
      ]),
    ).toBe(false);
  });
});

describe('filter forms', () => {
  it('round-trips every kind and refuses incomplete ones', () => {
    const filters = [
      { type: 2, key: 'host', operator: false, rightOperand: ['a.com'] },
      { type: 0, key: 'liked', operator: false },
      { type: 0, key: 'read-status', operator: true },
      { type: 1, key: 'annotation', operator: 3, rightOperand: 4 },
      { type: 1, key: 'first-add-time', operator: 0, rightOperand: 5 },
      { type: 2, key: 'label', operator: 2, rightOperand: ['a', 'b'] },
      { type: 0, key: 'link-duplicate', operator: true },
      { type: 0, key: 'title-duplicate', operator: false },
    ] as const;
    for (const filter of filters) {
      expect(filterFromForm(filterFormOf(filter as never))).toEqual({ filter });
    }
    expect(filterFromForm(newFilterForm('host'))).toEqual({ error: 'Choose at least one host.' });
    expect(filterFromForm(newFilterForm('label'))).toEqual({ error: 'Choose at least one label.' });
    for (const count of ['', '-1', '1.5', 'x']) {
      expect(filterFromForm({ key: 'annotation', operator: 0, count })).toEqual({
        error: 'The number of highlights must be a whole number, 0 or more.',
      });
    }
  });

  it('normalizes typed hosts like the facets write them', () => {
    expect(normalizeHost(' Example.ORG ')).toBe('example.org');
    expect(normalizeHost('https://Blog.Example.com:8443/path?q')).toBe('blog.example.com:8443');
    expect(normalizeHost('a b')).toBeNull();
    expect(normalizeHost('')).toBeNull();
  });
});
