import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { fakeArchive, makeWebpage } from '../../test/fake-archive.ts';
import { listWebpagesOptions } from './api/list-webpages.ts';
import { parseListSearch } from './filters.ts';
import { hideWebpages, unhideWebpages, useWithoutHidden } from './hidden-webpages.ts';

const PAGES = [1, 2, 3].map((n) => makeWebpage(n));
const filters = parseListSearch(new URLSearchParams());

function List() {
  const { data } = useQuery({ ...listWebpagesOptions(filters), select: useWithoutHidden() });
  return (
    <ul aria-label="list">
      {data?.items.map((item) => (
        <li key={item.id}>{item.title}</li>
      ))}
    </ul>
  );
}

let queryClient: QueryClient;
beforeEach(() => {
  localStorage.clear();
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => {
  unhideWebpages(PAGES.map((page) => page.id));
  vi.unstubAllGlobals();
});

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

describe('webpages in their undo window', () => {
  it('are left out of the list by select, while the cache keeps what the server answered', async () => {
    const archive = fakeArchive(PAGES);
    hideWebpages([PAGES[1]!.id]);
    render(<List />, { wrapper });
    expect(await screen.findByText('Article 3')).toBeVisible();
    expect(screen.queryByText('Article 2')).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    const cached = queryClient.getQueryData(listWebpagesOptions(filters).queryKey);
    expect(cached?.items.map((item) => item.title)).toEqual([
      'Article 3',
      'Article 2',
      'Article 1',
    ]);

    const requests = archive.listRequests().length;
    act(() => unhideWebpages([PAGES[1]!.id]));
    expect(await screen.findByText('Article 2')).toBeVisible();
    expect(archive.listRequests()).toHaveLength(requests);
  });
});
