// A view's filters take only the fields the contract names, at every depth: an unknown field in a
// filter is a 400 (as one at the top of the body is), and nothing is stored. The `id` a stored
// filter has may be sent back (HamsterBase clients copy a view's filters); a new one is generated.
import { beforeAll, describe, expect, it } from 'vitest';
import { fails, ok } from './support/api.ts';
import { useSeededServer } from './support/seed.ts';

const archive = useSeededServer([
  { key: 'liked', title: 'Liked page', ext: 'html', liked: true, addedAt: 1_000 },
  { key: 'plain', title: 'Plain page', ext: 'html', addedAt: 2_000 },
]);

const LIKED = { type: 0, key: 'liked', operator: true } as const;

/** Filters with one unknown field, one per kind of filter (and nested objects as values). */
const WITH_UNKNOWN_FIELDS: Array<Record<string, unknown>> = [
  { ...LIKED, extra: 1 },
  { type: 0, key: 'read-status', operator: false, note: 'x' },
  { type: 2, key: 'host', operator: true, rightOperand: ['a.example'], nested: { deep: true } },
  { type: 1, key: 'annotation', operator: 2, rightOperand: 0, __proto__x: 1 },
  { type: 1, key: 'first-add-time', operator: 0, rightOperand: 1, rightOperandKind: 'day' },
  { type: 2, key: 'label', operator: 1, rightOperand: ['x'], labels: ['y'] },
  { type: 0, key: 'link-duplicate', operator: true, match: 'or' },
  { type: 0, key: 'title-duplicate', operator: true, filters: [] },
];

let viewId: string;

beforeAll(async () => {
  const view = await ok(archive, 'createView', { body: { title: 'Liked', filters: [LIKED] } });
  viewId = view.id;
});

async function storedViews() {
  return ok(archive, 'listViews');
}

describe('unknown fields in a filter are refused', () => {
  it.each(WITH_UNKNOWN_FIELDS)('createView with %o: 400, nothing stored', async (filter) => {
    const before = await storedViews();
    const error = await fails(archive, 'createView', 400, {
      body: { title: 'Refused', filters: [LIKED, filter] },
    });
    expect(error.message).toMatch(/filters/);
    expect(await storedViews()).toEqual(before);
  });

  it.each(WITH_UNKNOWN_FIELDS)('patchView with %o: 400, the view unchanged', async (filter) => {
    const before = await ok(archive, 'getView', { params: { view_id: viewId } });
    await fails(archive, 'patchView', 400, {
      params: { view_id: viewId },
      body: { title: 'Changed', filters: [filter] },
    });
    expect(await ok(archive, 'getView', { params: { view_id: viewId } })).toEqual(before);
  });

  it.each(WITH_UNKNOWN_FIELDS)('previewView with %o: 400', async (filter) => {
    await fails(archive, 'previewView', 400, { body: { title: 'Preview', filters: [filter] } });
  });
});

describe('the fields HamsterBase clients send are taken', () => {
  it('a stored filter sent back with its id: taken, with a new id', async () => {
    const stored = await ok(archive, 'getView', { params: { view_id: viewId } });
    const sentBack = stored.filters;
    expect(sentBack[0]).toHaveProperty('id');

    const copy = await ok(archive, 'createView', { body: { title: 'Copy', filters: sentBack } });
    expect(copy.filters).toHaveLength(1);
    expect(copy.filters[0]).toMatchObject(LIKED);
    expect(copy.filters[0]!.id).not.toBe(sentBack[0]!.id);

    const preview = await ok(archive, 'previewView', { body: { title: 'P', filters: sentBack } });
    expect(preview.count).toBe(1);

    const patched = await ok(archive, 'patchView', {
      params: { view_id: copy.id },
      body: { filters: sentBack },
    });
    expect(patched.filters[0]).toMatchObject(LIKED);
  });
});
