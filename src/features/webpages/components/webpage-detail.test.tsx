import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Webpage } from '../api/get-webpage.ts';
import { webpageKeys } from '../api/webpage-keys.ts';
import { defaultListFilters } from '../filters.ts';
import { WebpageDetail } from './webpage-detail.tsx';

// Role queries on a full page are slow in jsdom, more so on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const id = 'a'.repeat(64);

function webpage(overrides: Partial<Webpage> = {}): Webpage {
  return {
    id,
    title: 'An archived article',
    excerpt: 'What the article is about.',
    firstAddTime: Date.UTC(2025, 2, 4, 10, 30),
    createTime: 21,
    liked: false,
    read: false,
    link: 'https://news.example.com:8443/story',
    size: 2_500_000,
    ext: 'mhtml',
    highlights: [
      {
        highlightId: 'h1',
        type: 1,
        marker: { meta: { textBefore: '', textAfter: '' } },
        text: 'An important sentence.',
        note: 'Remember this',
      },
    ],
    labels: ['news', '<b>bold</b>'],
    ...overrides,
  };
}

interface Call {
  method: string;
  body: unknown;
}

/**
 * GET answers `page` (a value, or a function for the current one; a function may return a promise
 * that never settles); PATCH and DELETE go to `onWrite`.
 */
function mockApi(
  page: Webpage | (() => Webpage | Promise<Webpage>),
  onWrite: (call: Call) => Promise<Response> | Response,
) {
  const writes: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const request = input as Request;
      if (request.method === 'GET') {
        const data = typeof page === 'function' ? await page() : page;
        return Response.json({ success: true, data });
      }
      const call = {
        method: request.method,
        body: request.method === 'PATCH' ? await request.json() : null,
      };
      writes.push(call);
      return onWrite(call);
    }),
  );
  return writes;
}

function renderDetail() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/webpages/:id',
        Component: () => (
          <WebpageDetail webpageId={id} renderPreview={(w) => <p>Preview of {w.ext}</p>} />
        ),
      },
      { path: '/', Component: () => <h1>Library</h1> },
    ],
    { initialEntries: [`/webpages/${id}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WebpageDetail', () => {
  it('shows the metadata as text, with a safe external link and the preview slot', async () => {
    mockApi(webpage(), () => Response.json({}));
    renderDetail();

    expect(await screen.findByRole('heading', { name: 'An archived article' })).toBeInTheDocument();
    expect(screen.getByText('What the article is about.')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'https://news.example.com:8443/story' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('news.example.com:8443')).toBeInTheDocument();
    expect(screen.getByText('2.5 MB')).toBeInTheDocument();
    // createTime 21 is HamsterBase's day of the month, not a date.
    expect(screen.getByText('Unknown')).toBeInTheDocument();
    const labels = screen.getByRole('list', { name: 'Labels' });
    expect(within(labels).getByText('<b>bold</b>')).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByText('An important sentence.')).toBeInTheDocument();
    expect(screen.getByText('Remember this')).toBeInTheDocument();
    expect(screen.getByText('Preview of mhtml')).toBeInTheDocument();
  });

  it('never makes a link of a non-http URL', async () => {
    mockApi(webpage({ link: 'javascript:alert(1)' }), () => Response.json({}));
    renderDetail();
    expect(await screen.findByText('javascript:alert(1)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'javascript:alert(1)' })).toBeNull();
  });

  it('likes at once and rolls back when the server refuses', async () => {
    let answer: (response: Response) => void = () => {};
    // Reads after the change wait for `release`: until then only the rollback can undo the like.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let changed = false;
    const writes = mockApi(
      async () => {
        if (changed) await gate;
        return webpage();
      },
      () => {
        changed = true;
        return new Promise<Response>((resolve) => (answer = resolve));
      },
    );
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Like' }));
    // Optimistic: shown before the server answered.
    expect(await screen.findByRole('button', { name: 'Unlike' })).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'PATCH', body: { liked: true } }]);

    answer(Response.json({ message: 'database is locked' }, { status: 500 }));
    expect(await screen.findByRole('button', { name: 'Like' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('database is locked');
  });

  it('marks as read', async () => {
    let current = webpage();
    const writes = mockApi(
      () => current,
      (call) => {
        current = { ...current, ...(call.body as Partial<Webpage>) };
        return Response.json({ success: true, data: current });
      },
    );
    renderDetail();

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
    expect(writes[0]).toEqual({ method: 'PATCH', body: { read: true } });
  });

  it('deletes after confirmation, then shows the list', async () => {
    const writes = mockApi(webpage(), () => Response.json({ success: true, data: webpage() }));
    const { router, queryClient } = renderDetail();
    // A list cached earlier (not on screen) that still has the page.
    const listKey = webpageKeys.list(defaultListFilters);
    queryClient.setQueryData(listKey, { items: [], hasNext: false });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('group', { name: 'Delete this webpage?' });
    expect(writes).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'DELETE', body: null }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    // The next visit of that list loads it again instead of showing the deleted page.
    expect(queryClient.getQueryData(listKey)).toBeUndefined();
  });

  it('cancels a delete', async () => {
    const writes = mockApi(webpage(), () => Response.json({}));
    renderDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(writes).toEqual([]);
  });
});
