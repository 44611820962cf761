import { afterEach, describe, expect, it, vi } from 'vitest';

import { makeView, fakeViewsApi } from '../../../test/fake-views-api.ts';
import type { CreateViewRequest } from '../view-draft.ts';
import { saveView, SaveViewError } from './save-view.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const original = makeView({
  id: 'old',
  title: 'Reading list',
  description: 'before',
  sort: 4,
  filters: [{ id: 'f1', type: 0, key: 'liked', operator: true }],
});

const edited: CreateViewRequest = {
  title: 'Reading list (new)',
  description: 'after',
  sort: 1,
  limit: 10,
  enableLimit: true,
  match: 'or',
  filters: [
    { type: 0, key: 'read-status', operator: false },
    { type: 2, key: 'host', operator: true, rightOperand: ['example.org'] },
  ],
};

const strip = (filters: readonly Record<string, unknown>[]) =>
  filters.map(({ id: _id, ...rest }) => rest);

describe('saveView', () => {
  it('on a server that applies filters: one PATCH with every field, no recreate', async () => {
    const api = fakeViewsApi({ views: [original] });
    const result = await saveView({ original, request: edited });
    expect(result.recreated).toBe(false);
    expect(result.view.id).toBe('old');
    expect(strip(result.view.filters)).toEqual(edited.filters);
    expect(api.writes()).toEqual([{ method: 'PATCH', path: '/views/old', body: edited }]);
  });

  it('sends no filters when they did not change (ids aside)', async () => {
    const api = fakeViewsApi({ views: [original], ignoreFilterPatch: true });
    const request = {
      ...edited,
      filters: [{ type: 0 as const, key: 'liked' as const, operator: true }],
    };
    const result = await saveView({ original, request });
    expect(result).toMatchObject({ recreated: false, view: { id: 'old', title: edited.title } });
    const { filters: _filters, ...fields } = request;
    expect(api.writes()).toEqual([{ method: 'PATCH', path: '/views/old', body: fields }]);
  });

  it('when PATCH answers the old filters: creates the view again, deletes the old one', async () => {
    const api = fakeViewsApi({ views: [original], ignoreFilterPatch: true });
    const result = await saveView({ original, request: edited });
    expect(result.recreated).toBe(true);
    expect(result.warning).toBeUndefined();
    expect(result.view.id).not.toBe('old');
    expect(result.view).toMatchObject({
      title: edited.title,
      description: 'after',
      sort: 1,
      limit: 10,
      enableLimit: true,
      match: 'or',
    });
    expect(strip(result.view.filters)).toEqual(edited.filters);
    expect(api.writes().map(({ method, path }) => `${method} ${path}`)).toEqual([
      'PATCH /views/old',
      'POST /views',
      'DELETE /views/old',
    ]);
    expect(api.writes()[1]?.body).toEqual(edited);
    expect(api.views().map((view) => view.id)).toEqual([result.view.id]);
  });

  it('loses nothing when the create fails: the old view stays, and says so', async () => {
    const api = fakeViewsApi({
      views: [original],
      ignoreFilterPatch: true,
      intercept: ({ method, path }) =>
        method === 'POST' && path === '/views'
          ? Response.json({ message: 'disk full' }, { status: 500 })
          : undefined,
    });
    const failure = await saveView({ original, request: edited }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SaveViewError);
    expect((failure as SaveViewError).message).toMatch(/not the filters.*disk full/);
    expect((failure as SaveViewError).saved).toMatchObject({ id: 'old', title: edited.title });
    // Never deleted: the old view (with its old filters) is still there.
    expect(api.writes().some((request) => request.method === 'DELETE')).toBe(false);
    expect(api.views()).toHaveLength(1);
    expect(strip(api.views()[0]!.filters)).toEqual(strip(original.filters));
  });

  it('keeps both views when the old one cannot be deleted, with a warning', async () => {
    const api = fakeViewsApi({
      views: [original],
      ignoreFilterPatch: true,
      intercept: ({ method }) =>
        method === 'DELETE' ? Response.json({ message: 'locked' }, { status: 500 }) : undefined,
    });
    const result = await saveView({ original, request: edited });
    expect(result.recreated).toBe(true);
    expect(result.warning).toMatch(/old one could not be deleted \(locked\)/);
    expect(api.views()).toHaveLength(2);
  });

  it('a failed PATCH changes nothing and is the error', async () => {
    const api = fakeViewsApi({
      views: [original],
      intercept: ({ method }) =>
        method === 'PATCH'
          ? Response.json({ message: 'view old not found' }, { status: 404 })
          : undefined,
    });
    await expect(saveView({ original, request: edited })).rejects.toThrow('view old not found');
    expect(api.writes()).toHaveLength(1);
  });
});
