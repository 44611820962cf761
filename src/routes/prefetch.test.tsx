// Prefetching on intent: a webpage's detail when the pointer or the focus rests on its row, a list
// page when it rests on its link; the navigation then finds them in the cache.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { authStatus } from '../api/client.ts';
import { toastStore } from '../components/toast-store.ts';
import { fakeArchive, makeWebpage } from '../test/fake-archive.ts';
import { INTENT_DELAY_MS } from './link-intent.ts';
import { createRoutes } from './router.tsx';

/** 40 webpages: the first list page (30) shows Article 40 … Article 11. */
const FORTY = Array.from({ length: 40 }, (_, n) => makeWebpage(n + 1));
const idOf = (n: number) => FORTY[n - 1]!.id;

function renderAt(entry: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000 } },
  });
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [entry] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const rowOf = (title: string) => screen.getByRole('link', { name: title }).closest('li')!;

beforeEach(() => {
  localStorage.clear();
  toastStore.clear();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  authStatus.reset();
});

describe('prefetching on intent', () => {
  it('fetches a webpage when the pointer rests on its row; opening it asks nothing more', async () => {
    const archive = fakeArchive(FORTY);
    const gets = (id: string) =>
      archive.requests.filter((r) => r.method === 'GET' && r.path === `/webpages/${id}`);
    const router = renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });

    // Anywhere on the row, not only its title.
    await user.hover(within(rowOf('Article 40')).getByText('html'));
    await waitFor(() => expect(gets(idOf(40))).toHaveLength(1));

    await user.click(screen.getByRole('link', { name: 'Article 40' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Article 40' })).toBeVisible();
    expect(router.state.location.pathname).toBe(`/webpages/${idOf(40)}`);
    expect(gets(idOf(40))).toHaveLength(1);
  });

  it('leaves alone the rows the pointer only passes over', async () => {
    const archive = fakeArchive(FORTY);
    renderAt('/');
    await screen.findByRole('list', { name: 'Webpages' });

    // The pointer passes over two rows and leaves the window in one go (a busy test machine may
    // take longer than the intent delay between two steps of user-event, which a hand does not).
    // The intent's timers are the test's: well past the delay, every one of them has fired, and
    // whatever it started has had its turn.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const passed = within(rowOf('Article 38')).getByText('html');
      fireEvent.pointerOver(within(rowOf('Article 39')).getByText('html'));
      fireEvent.pointerOver(passed);
      fireEvent.pointerOut(passed, { relatedTarget: null });
      await vi.advanceTimersByTimeAsync(INTENT_DELAY_MS * 3);
    } finally {
      vi.useRealTimers();
    }
    expect(archive.requests.filter((r) => r.path.startsWith('/webpages/'))).toEqual([]);
  });

  it('fetches the next list page when the focus rests on Next', async () => {
    const archive = fakeArchive(FORTY);
    const router = renderAt('/');
    await screen.findByRole('list', { name: 'Webpages' });
    expect(archive.listRequests()).toHaveLength(1);

    screen.getByRole('link', { name: 'Next →' }).focus();
    await waitFor(() => expect(archive.listRequests()).toHaveLength(2));

    await userEvent.setup().click(screen.getByRole('link', { name: 'Next →' }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2'),
    );
    expect(await screen.findByRole('link', { name: 'Article 10' })).toBeVisible();
    expect(archive.listRequests()).toHaveLength(2);
  });
});
