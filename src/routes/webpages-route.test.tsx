import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { authStatus } from '../api/client.ts';
import { saveConnectionSettings } from '../lib/connection-settings.ts';
import type { components } from '../../shared/contract/schema.gen.ts';
import { createRoutes } from './router.tsx';

type Item = components['schemas']['WebpagesListItem'];

function item(n: number, overrides: Partial<Item> = {}): Item {
  return {
    id: n.toString(16).padStart(64, '0'),
    title: `Article ${n}`,
    firstAddTime: Date.UTC(2025, 0, n),
    createTime: 21,
    liked: false,
    read: true,
    link: `https://site${n}.example.com/article`,
    size: 1000 * n,
    ext: 'html',
    labels: [],
    annotateCount: 0,
    ...overrides,
  };
}

type Answer = (url: URL) => Response;

const noViews: Answer = () => Response.json({ success: true, data: [] });

/** Answers `/views` (no views by default) and `/webpages`; records the list requests. */
function mockApi(webpages: Answer, views: Answer = noViews) {
  const listRequests: URL[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname.endsWith('/public/api/v1/views')) return views(url);
    if (url.pathname.endsWith('/public/api/v1/webpages')) {
      listRequests.push(url);
      return webpages(url);
    }
    return Response.json({ message: 'not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return listRequests;
}

const list = (items: Item[]) => () => Response.json({ success: true, data: { webpages: items } });

function renderAt(entry: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [entry] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

async function rows() {
  const webpages = await screen.findByRole('list', { name: 'Webpages' });
  return within(webpages).getAllByRole('listitem');
}

beforeEach(() => {
  localStorage.clear();
  // ScrollRestoration scrolls on navigation; jsdom has no layout to scroll.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  authStatus.reset();
});

describe('webpage list route', () => {
  it('renders one row per webpage, titles as plain text with fallbacks', async () => {
    const requests = mockApi(
      list([
        item(1, { title: 'First article', labels: ['news'], annotateCount: 3, liked: true }),
        item(2, { title: '', link: 'https://fallback.example.org/path' }),
        item(3, { title: '  ', link: null, read: false }),
        item(4, { title: '<img src=x onerror=alert(1)>' }),
      ]),
    );
    renderAt('/');

    const found = await rows();
    expect(found).toHaveLength(4);
    const [first, second, third, fourth] = found;
    expect(within(first!).getByRole('link', { name: 'First article' })).toHaveAttribute(
      'href',
      `/webpages/${item(1).id}`,
    );
    expect(within(first!).getByText('site1.example.com')).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'news' })).toHaveAttribute(
      'href',
      '/?label=news',
    );
    expect(first).toHaveTextContent('3 highlights');
    expect(first).toHaveTextContent('Liked');
    expect(
      within(second!).getByRole('link', { name: 'https://fallback.example.org/path' }),
    ).toBeInTheDocument();
    expect(within(third!).getByRole('link', { name: 'Untitled' })).toBeInTheDocument();
    expect(third).toHaveTextContent('Unread');
    expect(
      within(fourth!).getByRole('link', { name: '<img src=x onerror=alert(1)>' }),
    ).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();

    // Page 1 asks for one item more than it shows, with the default sort.
    const request = requests[0]!;
    expect(request.searchParams.get('page')).toBe('1');
    expect(request.searchParams.get('per_page')).toBe('31');
    expect(request.searchParams.get('sort')).toBe('first_add_time_desc');
    expect(request.searchParams.has('liked')).toBe(false);
    expect(screen.getByText('Next →')).toHaveAttribute('aria-disabled', 'true');
  });

  it('reads the filters from the URL and writes changes back to it', async () => {
    const requests = mockApi(list(Array.from({ length: 40 }, (_, i) => item(i + 1))));
    const router = renderAt('/?liked=yes&ext=mhtml&page=2&sort=title_asc');

    // Items 31 to 40 of the answer.
    const shown = await rows();
    expect(shown).toHaveLength(10);
    expect(within(shown[0]!).getByRole('link', { name: 'Article 31' })).toBeInTheDocument();
    expect(requests[0]!.searchParams.get('liked')).toBe('true');
    expect(requests[0]!.searchParams.getAll('ext')).toEqual(['mhtml']);
    expect(requests[0]!.searchParams.get('sort')).toBe('title_asc');
    // Page 2 of 30 plus one more: items 30..60, i.e. API page 1 of 61.
    expect(requests[0]!.searchParams.get('page')).toBe('1');
    expect(requests[0]!.searchParams.get('per_page')).toBe('61');
    expect(screen.getByLabelText('Liked')).toHaveValue('yes');
    expect(screen.getByLabelText('Format')).toHaveValue('mhtml');
    expect(screen.getByLabelText('Sort')).toHaveValue('title_asc');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Read'), 'no');

    await waitFor(() => expect(requests.at(-1)!.searchParams.get('read')).toBe('false'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('read')).toBe('no');
    expect(params.get('liked')).toBe('yes');
    // A new filter starts again at page 1.
    expect(params.has('page')).toBe(false);
    expect(requests.at(-1)!.searchParams.get('per_page')).toBe('31');
    await waitFor(() => expect(screen.getByLabelText('Read')).toHaveValue('no'));
  });

  it('pages with Next when the API has one more item than shown', async () => {
    const requests = mockApi((url) => {
      // 35 webpages in all: page 1 has a next page, page 2 shows the last 5.
      const perPage = Number(url.searchParams.get('per_page'));
      const start = (Number(url.searchParams.get('page')) - 1) * perPage;
      const items = Array.from({ length: 35 }, (_, i) => item(i + 1)).slice(start, start + perPage);
      return Response.json({ success: true, data: { webpages: items } });
    });
    const router = renderAt('/');
    expect(await rows()).toHaveLength(30);

    await userEvent.setup().click(screen.getByRole('link', { name: 'Next →' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(requests.at(-1)!.searchParams.get('per_page')).toBe('61');
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(await within(pager).findByText('Page 2')).toBeInTheDocument();
    expect(await rows()).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Article 31' })).toBeInTheDocument();
    expect(screen.getByText('Next →')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('link', { name: '← Previous' })).toHaveAttribute('href', '/');
  });

  it('shows an empty state that links to the upload page', async () => {
    mockApi(list([]));
    renderAt('/');
    expect(await screen.findByText('Your archive is empty.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload saved webpages' })).toHaveAttribute(
      'href',
      '/upload',
    );
  });

  it('says when no webpage matches the filters', async () => {
    mockApi(list([]));
    renderAt('/?annotated=no');
    expect(await screen.findByText('No webpages match these filters.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clear filters' })).toHaveAttribute('href', '/');
  });

  it('shows the server error with a Retry that loads again', async () => {
    let fail = true;
    mockApi(() =>
      fail
        ? Response.json({ message: 'database is locked' }, { status: 500 })
        : list([item(1, { title: 'Back again' })])(),
    );
    renderAt('/');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('database is locked');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Back again' })).toBeInTheDocument();
  });

  it('leads to the settings when the token is refused', async () => {
    saveConnectionSettings({ baseUrl: 'http://localhost', token: 'wrong' });
    const refused = () => Response.json({ message: 'Invalid token' }, { status: 401 });
    mockApi(refused, refused);
    renderAt('/');
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.some((alert) => alert.textContent?.includes('refused'))).toBe(true);
    const links = screen.getAllByRole('link', { name: /settings/i });
    expect(links.every((link) => link.getAttribute('href') === '/settings')).toBe(true);
    expect(
      await screen.findByRole('link', { name: 'Enter the token in Settings' }),
    ).toBeInTheDocument();
  });

  it('without a token, says that one is needed and where it is', async () => {
    const missing = () => Response.json({ message: 'No authorization header' }, { status: 401 });
    mockApi(missing, missing);
    renderAt('/');
    const banner = await screen.findByText(/Folio needs its access token/);
    expect(banner).toHaveTextContent(
      'open the address that npm start printed (the line with #token=…), or enter the token ' +
        'from the file FOLIO_DATA_DIR/token (data/token by default).',
    );
    expect(await screen.findByText('A token is needed')).toBeInTheDocument();
    expect(screen.queryByText(/refused/)).not.toBeInTheDocument();
  });
});
