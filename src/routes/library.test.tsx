// The library (list route) end to end in jsdom: filter menus from facets, multi-select, bulk
// actions and keyboard shortcuts, against an in-memory archive behind `fetch`.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { authStatus } from '../api/client.ts';
import { toastStore } from '../components/toast-store.ts';
import { fakeArchive, makeWebpage } from '../test/fake-archive.ts';
import { createRoutes } from './router.tsx';

/** Ten webpages, newest first on the list: Article 10 … Article 1, hosts site0..2. */
const TEN = Array.from({ length: 10 }, (_, n) =>
  makeWebpage(n + 1, {
    labels: n % 2 ? ['news'] : ['news', 'tech'],
    liked: n === 9,
  }),
);

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

const checkbox = (title: string) => screen.getByRole('checkbox', { name: `Select ${title}` });
const params = (router: ReturnType<typeof renderAt>) =>
  new URLSearchParams(router.state.location.search);

beforeEach(() => {
  localStorage.clear();
  toastStore.clear();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  authStatus.reset();
});

describe('filter menus', () => {
  it('filters by hosts (any of) and labels (all of) from the facets, in the URL', async () => {
    const archive = fakeArchive(TEN);
    const router = renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });

    await user.click(screen.getByRole('button', { name: 'Hosts' }));
    const hosts = await screen.findByRole('group', { name: 'Filter by host' });
    expect(screen.getByRole('button', { name: 'Hosts' })).toHaveAttribute('aria-expanded', 'true');
    const site1 = await within(hosts).findByRole('checkbox', { name: 'site1.example.com' });
    // Counts from the server's facets: 4 of the 10 pages are on site1.
    expect(site1).toHaveAccessibleDescription('4');
    expect(within(hosts).getByRole('searchbox', { name: 'Search hosts' })).toHaveFocus();
    await user.click(site1);
    await waitFor(() => expect(params(router).getAll('host')).toEqual(['site1.example.com']));
    await user.click(within(hosts).getByRole('checkbox', { name: 'site2.example.com' }));
    await waitFor(() =>
      expect(params(router).getAll('host')).toEqual(['site1.example.com', 'site2.example.com']),
    );
    await waitFor(() =>
      expect(archive.listRequests().at(-1)?.search.getAll('host')).toEqual([
        'site1.example.com',
        'site2.example.com',
      ]),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('checkbox', { name: /^Select Article/ })).toHaveLength(7),
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Filter by host' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Hosts' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Labels' }));
    const labels = await screen.findByRole('group', { name: 'Filter by label' });
    await user.type(within(labels).getByRole('searchbox', { name: 'Search labels' }), 'te');
    expect(
      within(labels)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(['tech']);
    await user.click(within(labels).getByRole('checkbox', { name: 'tech' }));
    await waitFor(() => expect(params(router).getAll('label')).toEqual(['tech']));
    await waitFor(() =>
      expect(archive.listRequests().at(-1)?.search.getAll('labels')).toEqual(['tech']),
    );
    // Reload with the same URL: the same list.
    expect(screen.getByText('Label: tech')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove label filter tech' }));
    await waitFor(() => expect(params(router).has('label')).toBe(false));
  });

  it('collects hosts and labels from recent pages when the server has no facets (404)', async () => {
    const archive = fakeArchive(TEN, { facets: 'missing' });
    renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    await user.click(screen.getByRole('button', { name: 'Labels' }));
    const panel = await screen.findByRole('group', { name: 'Filter by label' });
    expect(await within(panel).findByText(/from recent pages/i)).toBeInTheDocument();
    expect(within(panel).getByRole('checkbox', { name: 'news' })).toHaveAccessibleDescription('10');
    expect(within(panel).getByRole('checkbox', { name: 'tech' })).toHaveAccessibleDescription('5');
    const fallback = archive.listRequests().filter((r) => r.search.get('per_page') === '200');
    expect(fallback).toHaveLength(1);
    expect(fallback[0]!.search.get('sort')).toBe('first_add_time_desc');
  });

  it('also falls back on HamsterBase’s HTML answer to an unknown path', async () => {
    fakeArchive(TEN, { facets: 'html' });
    renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    await user.click(screen.getByRole('button', { name: 'Hosts' }));
    const panel = await screen.findByRole('group', { name: 'Filter by host' });
    expect(await within(panel).findByText(/from recent pages/i)).toBeInTheDocument();
    expect(within(panel).getAllByRole('checkbox')).toHaveLength(3);
  });
});

describe('multi-select and bulk actions', () => {
  it('selects ranges with Shift, and all on the page', async () => {
    fakeArchive(TEN);
    renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });

    await user.click(checkbox('Article 9'));
    await user.keyboard('{Shift>}');
    await user.click(checkbox('Article 6'));
    await user.keyboard('{/Shift}');
    expect(await screen.findByText('4 selected')).toBeInTheDocument();
    for (const n of [9, 8, 7, 6]) expect(checkbox(`Article ${n}`)).toBeChecked();
    for (const n of [10, 5]) expect(checkbox(`Article ${n}`)).not.toBeChecked();
    const all = screen.getByRole('checkbox', { name: 'Select all on this page' });
    expect(all).toBePartiallyChecked();

    // Shift-click on a checked one unselects the range from the last click.
    await user.keyboard('{Shift>}');
    await user.click(checkbox('Article 8'));
    await user.keyboard('{/Shift}');
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(checkbox('Article 9')).toBeChecked();

    await user.click(all);
    expect(screen.getByText('10 selected')).toBeInTheDocument();
    expect(all).toBeChecked();
    await user.click(all);
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
  });

  it('likes the selection, four requests at most at once, and keeps the failures selected', async () => {
    const archive = fakeArchive(TEN);
    const refused = makeWebpage(7).id;
    archive.delay = () => new Promise((resolve) => setTimeout(resolve, 20));
    archive.refuse = (request) =>
      request.path.endsWith(refused)
        ? Response.json({ message: 'database is locked' }, { status: 500 })
        : null;
    renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });

    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const toolbar = await screen.findByRole('group', { name: 'Bulk actions' });
    await user.click(within(toolbar).getByRole('button', { name: 'Like' }));

    // Article 10 was liked already: nine PATCHes.
    expect(await screen.findByText('Liked 9 of 10 webpages; 1 failed:')).toBeInTheDocument();
    expect(screen.getByText('Article 7: database is locked')).toBeInTheDocument();
    const patches = archive.writes();
    expect(patches).toHaveLength(9);
    expect(patches.every((r) => r.method === 'PATCH')).toBe(true);
    expect(patches.map((r) => r.body)).toEqual(Array(9).fill({ liked: true }));
    expect(archive.maxInFlight).toBeLessThanOrEqual(4);
    expect(archive.maxInFlight).toBeGreaterThan(1);
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(checkbox('Article 7')).toBeChecked();
    expect(checkbox('Article 6')).not.toBeChecked();
    expect([...archive.pages.values()].filter((p) => p.liked)).toHaveLength(9);
    // The refused one is shown as it is on the server.
    const row = checkbox('Article 7').closest('li')!;
    await waitFor(() => expect(row).not.toHaveTextContent('Liked'));
    expect(checkbox('Article 6').closest('li')).toHaveTextContent('Liked');
  });

  it('adds and removes a label on the selection', async () => {
    const archive = fakeArchive(TEN);
    renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    await user.click(checkbox('Article 2'));
    await user.click(checkbox('Article 1'));
    const toolbar = await screen.findByRole('group', { name: 'Bulk actions' });

    await user.click(within(toolbar).getByRole('button', { name: 'Add label…' }));
    await user.type(within(toolbar).getByRole('combobox', { name: 'Label to add' }), 'todo{Enter}');
    expect(await screen.findByText('Added the label “todo” to 2 webpages.')).toBeInTheDocument();
    expect(archive.writes().map((r) => r.body)).toEqual([
      { labels: ['news', 'todo'] },
      { labels: ['news', 'tech', 'todo'] },
    ]);

    await user.click(checkbox('Article 2'));
    await user.click(checkbox('Article 1'));
    await user.click(
      within(screen.getByRole('group', { name: 'Bulk actions' })).getByRole('button', {
        name: 'Remove label…',
      }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Label to remove' }), 'tech');
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('Removed the label “tech” from 2 webpages.'),
    ).toBeInTheDocument();
    // Only the page that had it changes.
    expect(
      archive
        .writes()
        .slice(2)
        .map((r) => r.body),
    ).toEqual([{ labels: ['news', 'todo'] }]);
  });

  it('deletes the selection with an undo window', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const archive = fakeArchive(TEN);
    renderAt('/');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await screen.findByRole('list', { name: 'Webpages' });

    await user.click(checkbox('Article 3'));
    await user.click(checkbox('Article 4'));
    await user.click(
      within(await screen.findByRole('group', { name: 'Bulk actions' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Deleted 2 webpages')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select Article 3' })).toBeNull();
    expect(screen.getAllByRole('checkbox', { name: /^Select Article/ })).toHaveLength(8);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('checkbox', { name: 'Select Article 3' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(archive.writes()).toEqual([]);

    await user.click(checkbox('Article 3'));
    await user.click(
      within(await screen.findByRole('group', { name: 'Bulk actions' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(archive.writes().map((r) => r.method)).toEqual(['DELETE']));
    expect(archive.pages.has(makeWebpage(3).id)).toBe(false);
    await waitFor(() =>
      expect(screen.getAllByRole('checkbox', { name: /^Select Article/ })).toHaveLength(9),
    );
  });
});

describe('keyboard', () => {
  it('moves, selects, likes and opens rows; / goes to the filters', async () => {
    const archive = fakeArchive(TEN);
    const router = renderAt('/?sort=first_add_time_desc');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    const title = (n: number) => screen.getByRole('link', { name: `Article ${n}` });

    // The keyboard is loaded right after the first paint.
    await waitFor(async () => {
      await user.keyboard('j');
      expect(title(10)).toHaveFocus();
    });
    await user.keyboard('jj');
    expect(title(8)).toHaveFocus();
    await user.keyboard('k');
    expect(title(9)).toHaveFocus();
    expect(title(9).closest('li')).toHaveClass('webpage-row--active');

    await user.keyboard('x');
    expect(checkbox('Article 9')).toBeChecked();
    await user.keyboard('x');
    expect(checkbox('Article 9')).not.toBeChecked();

    await user.keyboard('l');
    await waitFor(() =>
      expect(archive.writes().map((r) => [r.path, r.body])).toEqual([
        [`/webpages/${makeWebpage(9).id}`, { liked: true }],
      ]),
    );
    expect(await screen.findByText('Liked “Article 9”.')).toBeInTheDocument();

    await user.keyboard('/');
    expect(screen.getByLabelText('Sort')).toHaveFocus();
    // In a field, letters are not shortcuts.
    await user.keyboard('j');
    expect(screen.getByLabelText('Sort')).toHaveFocus();

    title(9).focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/webpages/${makeWebpage(9).id}`),
    );
    expect(router.state.location.state).toEqual({ listSearch: '' });
  });

  it('e opens the detail to edit; Delete deletes the row with undo', async () => {
    const archive = fakeArchive(TEN);
    const router = renderAt('/?liked=no');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    await waitFor(async () => {
      await user.keyboard('j');
      expect(screen.getByRole('link', { name: 'Article 9' })).toHaveFocus();
    });
    await user.keyboard('{Delete}');
    expect(await screen.findByText('Deleted “Article 9”')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Article 9' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('link', { name: 'Article 9' })).toBeInTheDocument();
    expect(archive.writes()).toEqual([]);

    await user.keyboard('j');
    await user.keyboard('e');
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/webpages\//));
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveFocus();
  });

  it('? shows every shortcut in a dialog that Escape closes; u goes to the upload page', async () => {
    fakeArchive(TEN);
    const router = renderAt('/');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Webpages' });
    const upload = within(screen.getByRole('main')).getByRole('link', { name: 'Upload' });
    upload.focus();

    // The app's shortcuts load right after the first paint, the dialog on the first `?`.
    await waitFor(
      async () => {
        await user.keyboard('?');
        expect(document.querySelector('dialog[open]')).not.toBeNull();
      },
      { timeout: 10_000 },
    );
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    for (const group of ['Anywhere', 'Library', 'Webpage']) {
      expect(within(dialog).getByRole('region', { name: group })).toBeInTheDocument();
    }
    expect(dialog).toHaveTextContent('Delete, with undo');
    // Shortcuts of the page do nothing while the dialog is open.
    await user.keyboard('j');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(upload).toHaveFocus();

    await user.keyboard('u');
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });
});
