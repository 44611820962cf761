import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { formatDateTime } from '../../../lib/display.ts';
import { fakeArchive, makeWebpage } from '../../../test/fake-archive.ts';
import { CAPTURE_LIST_PAGES, CAPTURE_LIST_PER_PAGE } from '../api/list-webpage-captures.ts';
import { webpageKeys } from '../api/webpage-keys.ts';
import { WebpageDetail } from './webpage-detail.tsx';

// The fake archive ignores `link`, as HamsterBase does: these tests show that the client finds
// the captures by itself (host filter, exact link check, bounded paging).

const LINK = 'https://news.example.com:8443/story?id=7';
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2025, 2, 1, 9, 15);

function DetailRoute() {
  const params = useParams();
  return <WebpageDetail webpageId={params.id ?? ''} />;
}

function renderDetail(id: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/webpages/:id', Component: DetailRoute }], {
    initialEntries: [`/webpages/${id}`],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

function captureRequests(archive: ReturnType<typeof fakeArchive>) {
  return archive.listRequests().filter((request) => request.search.has('link'));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WebpageDetail › Also saved on', () => {
  it('lists the other captures of the same link, newest first, each linking to its detail', async () => {
    const shown = makeWebpage(1, { link: LINK, title: 'March', createTime: T0 + 10 * DAY });
    const older = makeWebpage(2, { link: LINK, title: 'February', createTime: T0 });
    const newer = makeWebpage(3, { link: LINK, title: 'April', createTime: T0 + 40 * DAY });
    // Same host, other links: a prefix, another query, and no capture date (HamsterBase's html).
    const sameHost = makeWebpage(4, { link: 'https://news.example.com:8443/story' });
    const otherQuery = makeWebpage(5, { link: `${LINK}&page=2` });
    const undated = makeWebpage(6, {
      link: LINK,
      title: 'Undated',
      createTime: 21,
      firstAddTime: T0 + 20 * DAY,
    });
    const archive = fakeArchive([shown, older, newer, sameHost, otherQuery, undated]);
    const { router } = renderDetail(shown.id);

    const section = await screen.findByRole('region', { name: 'Also saved on' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      formatDateTime(newer.createTime),
      formatDateTime(undated.firstAddTime),
      formatDateTime(older.createTime),
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `/webpages/${newer.id}`,
      `/webpages/${undated.id}`,
      `/webpages/${older.id}`,
    ]);
    expect(within(section).getByText(/capture date unknown/)).toBeInTheDocument();

    // Asked by host (HamsterBase's filter) and by link (Folio's), never written to.
    const [request] = captureRequests(archive);
    expect(request?.search.getAll('host')).toEqual(['news.example.com:8443']);
    expect(request?.search.get('link')).toBe(LINK);
    expect(archive.writes()).toEqual([]);

    await userEvent.setup().click(links[2]!);
    expect(await screen.findByRole('heading', { level: 1, name: 'February' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/webpages/${older.id}`);
    const history = await screen.findByRole('region', { name: 'Also saved on' });
    await waitFor(() =>
      expect(
        within(history)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual([
        formatDateTime(newer.createTime),
        formatDateTime(undated.firstAddTime),
        formatDateTime(shown.createTime),
      ]),
    );
  });

  it('is hidden when the page is the only capture of its link', async () => {
    const only = makeWebpage(1, { link: LINK, title: 'Only one' });
    const archive = fakeArchive([only, makeWebpage(4, { link: `${LINK}#part` })]);
    const { queryClient } = renderDetail(only.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Only one' })).toBeInTheDocument();
    await waitFor(() =>
      expect(queryClient.getQueryState(webpageKeys.captures(LINK))?.status).toBe('success'),
    );
    expect(captureRequests(archive)).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Also saved on' })).toBeNull();
    expect(screen.queryByText('Also saved on')).toBeNull();
  });

  it('asks nothing when the page has no link', async () => {
    const noLink = makeWebpage(1, { link: undefined, title: 'No link' });
    const archive = fakeArchive([noLink, makeWebpage(2, { link: undefined })]);
    renderDetail(noLink.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'No link' })).toBeInTheDocument();
    expect(captureRequests(archive)).toEqual([]);
    expect(screen.queryByText('Also saved on')).toBeNull();
  });

  it('reads a bounded number of pages when the server lists the whole host', async () => {
    const bound = CAPTURE_LIST_PAGES * CAPTURE_LIST_PER_PAGE;
    const host = 'https://busy.example';
    const shown = makeWebpage(1, { link: `${host}/front`, title: 'Front page' });
    // Oldest, beyond the pages read: never found.
    const ancient = makeWebpage(2, { link: `${host}/front`, firstAddTime: 1 });
    const recent = makeWebpage(3, {
      link: `${host}/front`,
      createTime: T0,
      firstAddTime: Date.UTC(2030, 0, 1),
    });
    const crowd = Array.from({ length: bound }, (_, n) =>
      makeWebpage(10 + n, { link: `${host}/story/${n}` }),
    );
    const archive = fakeArchive([shown, ancient, recent, ...crowd]);
    renderDetail(shown.id);

    const section = await screen.findByRole('region', { name: 'Also saved on' });
    expect(
      within(section)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`/webpages/${recent.id}`]);
    expect(section).toHaveTextContent(`only the ${bound} latest pages saved from busy.example`);
    expect(captureRequests(archive).map((request) => request.search.get('page'))).toEqual(
      Array.from({ length: CAPTURE_LIST_PAGES }, (_, n) => String(n + 1)),
    );
  });
});
