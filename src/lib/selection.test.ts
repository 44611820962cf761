import { describe, expect, it } from 'vitest';
import { toggleRange } from './selection.ts';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));

describe('toggleRange', () => {
  it('toggles the clicked item alone without a range', () => {
    expect([...toggleRange(new Set(), items, 1, null, false)]).toEqual(['b']);
    expect([...toggleRange(new Set(['b', 'c']), items, 1, 3, false)]).toEqual(['c']);
  });

  it('gives the whole range from the anchor the clicked item’s new state, either way round', () => {
    expect([...toggleRange(new Set(['a']), items, 3, 1, true)].sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect([...toggleRange(new Set(['c', 'e']), items, 0, 2, true)].sort()).toEqual([
      'a',
      'b',
      'c',
      'e',
    ]);
    expect([...toggleRange(new Set(['a', 'e']), items, 0, 2, true)]).toEqual(['e']);
    expect([...toggleRange(new Set(['a', 'b', 'c', 'd']), items, 3, 1, true)]).toEqual(['a']);
  });

  it('changes nothing for an item that is not there, and leaves its input alone', () => {
    const ids = new Set(['a']);
    expect(toggleRange(ids, items, 9, 0, true)).toEqual(ids);
    toggleRange(ids, items, 1, null, false);
    expect([...ids]).toEqual(['a']);
  });
});
