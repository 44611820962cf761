// The list's l / r keys pressed in a row, faster than the list redraws: each press is one change,
// sent in order (the queue of commands never takes a press for one already done).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import { authStatus } from '../api/client.ts';
import { toastStore } from '../components/toast-store.ts';
import { fakeArchive, makeWebpage } from '../test/fake-archive.ts';
import { createRoutes } from './router.tsx';

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

it('sends one change per press, in order, each from the state the last one left', async () => {
  const archive = fakeArchive([makeWebpage(1), makeWebpage(2)]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(createRoutes(queryClient), {
    initialEntries: ['/?sort=first_add_time_desc'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await screen.findByRole('list', { name: 'Webpages' });
  await waitFor(async () => {
    await user.keyboard('j');
    expect(screen.getByRole('link', { name: 'Article 2' })).toHaveFocus();
  });

  const keys = 'lrlrllrrlrll';
  // One keyboard call: the presses come before the list redraws.
  await user.keyboard(keys);

  const expected: Record<string, boolean>[] = [];
  const state = { liked: false, read: false };
  for (const key of keys) {
    const field = key === 'l' ? 'liked' : 'read';
    state[field] = !state[field];
    expected.push({ [field]: state[field] });
  }
  const id = makeWebpage(2).id;
  await waitFor(() => expect(archive.writes()).toHaveLength(keys.length));
  expect(archive.writes().map((write) => [write.path, write.body])).toEqual(
    expected.map((body) => [`/webpages/${id}`, body]),
  );
  expect(await screen.findByText(`${keys.length} changes saved`)).toBeInTheDocument();
});
