import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BusyIndicator } from './busy-indicator.tsx';

interface Deferred {
  promise: Promise<string>;
  resolve: (value: string) => void;
}

function deferred(): Deferred {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((res) => (resolve = res));
  return { promise, resolve };
}

let pending: Deferred[] = [];
const next = () => {
  const request = deferred();
  pending.push(request);
  return request.promise;
};

function Work() {
  const [fetching, setFetching] = useState(false);
  const query = useQuery({ queryKey: ['slow'], queryFn: next, enabled: fetching });
  const mutation = useMutation({ mutationFn: next });
  return (
    <>
      <button type="button" onClick={() => setFetching(true)}>
        Fetch
      </button>
      <button type="button" onClick={() => mutation.mutate()}>
        Change
      </button>
      <p>{query.data ?? mutation.data ?? 'nothing yet'}</p>
    </>
  );
}

function renderIndicator() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const loader = () => next();
  const router = createMemoryRouter(
    [
      {
        path: '/',
        Component: () => (
          <>
            <BusyIndicator />
            <Work />
          </>
        ),
      },
      { path: '/slow', loader, Component: () => <p>Slow page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const bar = () => screen.queryByRole('progressbar', { name: 'Working…' });
const click = (name: string) => act(() => screen.getByRole('button', { name }).click());
/** Answers a pending request, and lets the query client and the router tell their subscribers. */
async function answer(index: number, value: string) {
  await act(async () => {
    pending[index]!.resolve(value);
    await vi.advanceTimersByTimeAsync(20);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  pending = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('BusyIndicator', () => {
  it('shows for a change that takes more than a second, until it is done', async () => {
    renderIndicator();
    click('Change');
    await act(() => vi.advanceTimersByTimeAsync(900));
    expect(bar()).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(bar()).toBeInTheDocument();
    await answer(0, 'changed');
    expect(screen.getByText('changed')).toBeInTheDocument();
    expect(bar()).toBeNull();
  });

  it('never shows for quick work, and waits a full second again next time', async () => {
    renderIndicator();
    click('Change');
    await act(() => vi.advanceTimersByTimeAsync(700));
    await answer(0, 'quick');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(bar()).toBeNull();

    click('Fetch');
    await act(() => vi.advanceTimersByTimeAsync(700));
    expect(bar()).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(bar()).toBeInTheDocument();
    await answer(1, 'fetched');
    expect(screen.getByText('fetched')).toBeInTheDocument();
    expect(bar()).toBeNull();
  });

  it('shows while a route loads for more than a second', async () => {
    const router = renderIndicator();
    act(() => void router.navigate('/slow'));
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(bar()).toBeInTheDocument();
    await answer(0, 'loaded');
    expect(screen.getByText('Slow page')).toBeInTheDocument();
    expect(bar()).toBeNull();
  });
});
