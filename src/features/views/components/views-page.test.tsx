import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { WebpagesView } from '../api/list-views.ts';
import { ViewsPage } from './views-page.tsx';

// Role queries on a full page are slow in jsdom, more so on a busy machine.
configure({ asyncUtilTimeout: 5000 });

function view(overrides: Partial<WebpagesView>): WebpagesView {
  return {
    id: crypto.randomUUID(),
    title: 'A view',
    description: '',
    createdAt: Date.now(),
    enableLimit: false,
    limit: 25,
    sort: 4,
    filters: [],
    match: 'and',
    ...overrides,
  };
}

/** An in-memory `/views` API; returns the write requests it saw. */
function mockViewsApi(initial: WebpagesView[]) {
  let views = [...initial];
  const writes: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const request = input as Request;
      const url = new URL(request.url);
      if (request.method === 'GET') return Response.json({ success: true, data: views });
      if (request.method === 'POST') {
        const body = (await request.json()) as Partial<WebpagesView>;
        writes.push({ method: 'POST', url: url.pathname, body });
        const created = view({
          ...body,
          filters: (body.filters ?? []).map((f, i) => ({ ...f, id: String(i) })),
        });
        views = [...views, created];
        return Response.json({ success: true, data: created });
      }
      writes.push({ method: request.method, url: url.pathname, body: null });
      const id = url.pathname.split('/').at(-1);
      const removed = views.find((v) => v.id === id);
      views = views.filter((v) => v.id !== id);
      return Response.json({ success: true, data: removed });
    }),
  );
  return writes;
}

function renderViews() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/views', Component: ViewsPage }], {
    initialEntries: ['/views'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ViewsPage', () => {
  it('lists views with a readable summary', async () => {
    mockViewsApi([
      view({
        id: 'v1',
        title: 'Unread news',
        description: 'Morning reading',
        filters: [
          { id: 'f1', type: 0, key: 'read-status', operator: false },
          { id: 'f2', type: 2, key: 'label', operator: 0, rightOperand: ['news'] },
        ],
        sort: 3,
        enableLimit: true,
        limit: 10,
      }),
    ]);
    renderViews();
    const list = await screen.findByRole('list', { name: 'Views' });
    const item = within(list).getByRole('listitem');
    expect(within(item).getByRole('link', { name: 'Unread news' })).toHaveAttribute(
      'href',
      '/views/v1',
    );
    expect(item).toHaveTextContent('Morning reading');
    expect(item).toHaveTextContent('Unread and Labels: has all of news · Oldest first, first 10');
  });

  it('creates a view from the form', async () => {
    const writes = mockViewsApi([]);
    renderViews();
    const user = userEvent.setup();
    expect(await screen.findByText('No views yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New view' }));
    const form = screen.getByRole('form', { name: 'New view' });
    await user.click(within(form).getByRole('button', { name: 'Create view' }));
    expect(within(form).getByText('A view needs a title.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.type(within(form).getByLabelText('Title'), 'Liked with highlights');
    await user.selectOptions(within(form).getByLabelText('Liked'), 'yes');
    await user.selectOptions(within(form).getByLabelText('Highlights'), 'yes');
    await user.type(within(form).getByLabelText(/Labels/), 'tech, news, tech');
    await user.selectOptions(within(form).getByLabelText('Sort'), 'Title A→Z');
    await user.click(within(form).getByLabelText('Show only the first'));
    const limit = within(form).getByLabelText('Number of webpages');
    await user.clear(limit);
    await user.type(limit, '10');
    await user.click(within(form).getByRole('button', { name: 'Create view' }));

    const list = await screen.findByRole('list', { name: 'Views' });
    expect(within(list).getByRole('link', { name: 'Liked with highlights' })).toBeInTheDocument();
    expect(writes).toEqual([
      {
        method: 'POST',
        url: '/public/api/v1/views',
        body: {
          title: 'Liked with highlights',
          description: '',
          sort: 1,
          enableLimit: true,
          limit: 10,
          match: 'and',
          filters: [
            { type: 0, key: 'liked', operator: true },
            { type: 1, key: 'annotation', operator: 2, rightOperand: 0 },
            { type: 2, key: 'label', operator: 0, rightOperand: ['tech', 'news'] },
          ],
        },
      },
    ]);
  });

  it('deletes a view after confirmation', async () => {
    const writes = mockViewsApi([view({ id: 'v1', title: 'Old view' })]);
    renderViews();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('group', { name: 'Delete the view “Old view”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No views yet.')).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'DELETE', url: '/public/api/v1/views/v1', body: null }]);
  });
});
