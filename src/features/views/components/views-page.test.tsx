import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { toastStore } from '../../../components/toast-store.ts';
import { ToastViewport } from '../../../components/toast-viewport.tsx';
import { makeView, fakeViewsApi } from '../../../test/fake-views-api.ts';
import { ViewsPage } from './views-page.tsx';

function renderViews() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/views', Component: ViewsPage }], {
    initialEntries: ['/views'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastViewport />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  toastStore.clear();
});

describe('ViewsPage', () => {
  it('lists views newest first with their filters, sort and limit', async () => {
    fakeViewsApi({
      // As HamsterBase answers: by id, not by time.
      views: [
        makeView({ id: 'a-old', title: 'Old', createdAt: 1000 }),
        makeView({
          id: 'b-new',
          title: 'Unread news',
          description: 'Morning reading',
          createdAt: 3000,
          filters: [
            { id: 'f1', type: 0, key: 'read-status', operator: false },
            { id: 'f2', type: 2, key: 'label', operator: 0, rightOperand: ['news'] },
          ],
          sort: 3,
          enableLimit: true,
          limit: 10,
        }),
        makeView({ id: 'c-mid', title: 'Middle', createdAt: 2000, match: 'or' }),
      ],
    });
    renderViews();
    const list = await screen.findByRole('list', { name: 'Views' });
    // The views themselves (their filter chips are lists too).
    const items = [...list.children] as HTMLElement[];
    expect(items.map((item) => within(item).getAllByRole('link')[0]!.textContent)).toEqual([
      'Unread news',
      'Middle',
      'Old',
    ]);
    const first = items[0]!;
    expect(within(first).getByRole('link', { name: 'Unread news' })).toHaveAttribute(
      'href',
      '/views/b-new',
    );
    expect(first).toHaveTextContent('Morning reading');
    const filters = within(first).getByRole('list', { name: 'Filters of Unread news' });
    expect(
      within(filters)
        .getAllByRole('listitem')
        .map((chip) => chip.textContent),
    ).toEqual(['Unread', 'Has label news']);
    expect(first).toHaveTextContent('All of:');
    expect(first).toHaveTextContent('Oldest first, first 10');
    expect(within(first).getByRole('link', { name: 'Edit Unread news' })).toHaveAttribute(
      'href',
      '/views/b-new/edit',
    );
    expect(items[1]).toHaveTextContent('All webpages');
    expect(items[1]).toHaveTextContent('Newest first');
  });

  it('explains what a view is when there is none', async () => {
    fakeViewsApi();
    renderViews();
    expect(await screen.findByText('No views yet.')).toBeInTheDocument();
    expect(screen.getByText(/A view is a saved list of webpages/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a view' })).toHaveAttribute(
      'href',
      '/views/new',
    );
    expect(screen.getByRole('link', { name: 'New view' })).toHaveAttribute('href', '/views/new');
  });

  it('deletes a view after confirmation, and not before', async () => {
    const api = fakeViewsApi({ views: [makeView({ id: 'v1', title: 'Old view' })] });
    renderViews();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('group', {
      name: 'Delete the view “Old view”? Its webpages stay in the library.',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.writes()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('group', { name: /Delete the view/ })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('No views yet.')).toBeInTheDocument();
    expect(api.writes()).toEqual([{ method: 'DELETE', path: '/views/v1', body: null }]);
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted the view “Old view”');
  });

  it('undoes a delete by creating the view again with the same definition', async () => {
    const api = fakeViewsApi({
      views: [
        makeView({
          id: 'v1',
          title: 'Reading list',
          description: 'For the train',
          sort: 2,
          enableLimit: true,
          limit: 7,
          match: 'or',
          filters: [
            { id: 'f1', type: 0, key: 'read-status', operator: false },
            { id: 'f2', type: 2, key: 'label', operator: 0, rightOperand: ['long'] },
          ],
        }),
      ],
    });
    renderViews();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('group', { name: /Delete the view/ })).getByRole('button', {
        name: 'Delete',
      }),
    );
    const deleted = await screen.findByRole('status');
    expect(deleted).toHaveTextContent('Deleted the view “Reading list”');
    await user.click(
      within(deleted).getByRole('button', { name: 'Undo: Deleted the view “Reading list”' }),
    );

    expect(await screen.findByText('Restored the view “Reading list”')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Reading list' })).toBeInTheDocument();
    expect(api.writes().at(-1)).toEqual({
      method: 'POST',
      path: '/views',
      body: {
        title: 'Reading list',
        description: 'For the train',
        sort: 2,
        limit: 7,
        enableLimit: true,
        match: 'or',
        filters: [
          { type: 0, key: 'read-status', operator: false },
          { type: 2, key: 'label', operator: 0, rightOperand: ['long'] },
        ],
      },
    });
  });

  it('keeps the view and says why when the delete is refused', async () => {
    fakeViewsApi({
      views: [makeView({ id: 'v1', title: 'Stuck' })],
      intercept: ({ method }) =>
        method === 'DELETE'
          ? Response.json({ message: 'database is locked' }, { status: 500 })
          : undefined,
    });
    renderViews();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('group', { name: /Delete the view/ })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not delete: database is locked',
    );
    expect(screen.getByRole('link', { name: 'Stuck' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
