import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { authStatus } from '../api/client.ts';
import { toastStore } from '../components/toast-store.ts';
import { makeView, makeViewWebpage, fakeViewsApi } from '../test/fake-views-api.ts';
import { createRoutes } from './router.tsx';

function renderAt(entry: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [entry] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

const location = (router: ReturnType<typeof renderAt>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

beforeEach(() => {
  localStorage.clear();
  // ScrollRestoration and the virtual list scroll; jsdom has no layout to scroll.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  authStatus.reset();
  toastStore.clear();
});

describe('a view’s page', () => {
  const view = makeView({
    id: 'v1',
    title: 'Everything',
    filters: [{ id: 'f', type: 0, key: 'read-status', operator: true }],
  });
  const pages = Array.from({ length: 5000 }, (_, i) => makeViewWebpage(i + 1));

  it('draws only the visible rows of 5,000, in the view’s order, linked within the view', async () => {
    fakeViewsApi({ views: [view], webpages: { v1: pages } });
    renderAt('/views/v1');
    const list = await screen.findByRole('list', { name: 'Webpages of Everything' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(rows.map((row) => within(row).getAllByRole('link')[0]!.textContent).slice(0, 3)).toEqual(
      ['Article 1', 'Article 2', 'Article 3'],
    );
    expect(within(rows[0]!).getByRole('link', { name: 'Article 1' })).toHaveAttribute(
      'href',
      `/webpages/${pages[0]!.id}?view=v1`,
    );
    expect(screen.getByText('· 5,000 webpages')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { name: 'Everything' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Filters of the view' })).toHaveTextContent('Read');
  });

  it('moves with j / k and opens with Enter, keeping the view as context', async () => {
    fakeViewsApi({ views: [view], webpages: { v1: pages.slice(0, 50) } });
    const { router, user } = renderAt('/views/v1');
    await screen.findByRole('list', { name: 'Webpages of Everything' });
    await user.keyboard('jjjk');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Article 2' }).closest('li')).toHaveClass(
        'webpage-row--active',
      ),
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location(router)).toBe(`/webpages/${pages[1]!.id}?view=v1`));
  });

  it('selects webpages and offers the library’s bulk actions', async () => {
    fakeViewsApi({ views: [view], webpages: { v1: pages.slice(0, 20) } });
    const { user } = renderAt('/views/v1');
    await screen.findByRole('list', { name: 'Webpages of Everything' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Article 3' }));
    // Once the selection is drawn (the bulk actions say so), focus is still where the user put it
    // (only j / k move it to a row's title).
    expect(
      within(await screen.findByRole('group', { name: 'Bulk actions' })).getByRole('status'),
    ).toHaveTextContent('1 selected');
    expect(screen.getByRole('checkbox', { name: 'Select Article 3' })).toHaveFocus();
    await user.click(screen.getByRole('checkbox', { name: 'Select Article 6' }));
    const bulk = await screen.findByRole('group', { name: 'Bulk actions' });
    expect(within(bulk).getByRole('status')).toHaveTextContent('2 selected');
    expect(within(bulk).getByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all in this view' }));
    expect(within(bulk).getByRole('status')).toHaveTextContent('20 selected');
    await user.click(within(bulk).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
  });

  it('deletes the view after confirmation and goes to the views', async () => {
    const api = fakeViewsApi({ views: [view], webpages: { v1: [] } });
    const { router, user } = renderAt('/views/v1');
    expect(await screen.findByText('No webpages in this view.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete view' }));
    await user.click(
      within(screen.getByRole('group', { name: /Delete the view “Everything”/ })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    await waitFor(() => expect(location(router)).toBe('/views'));
    expect(api.writes()).toEqual([{ method: 'DELETE', path: '/views/v1', body: null }]);
  });
});

describe('a webpage opened from a view', () => {
  it('Previous / Next and the way back follow the view', async () => {
    const pages = [makeViewWebpage(7), makeViewWebpage(3), makeViewWebpage(5)];
    fakeViewsApi({ views: [makeView({ id: 'v1', title: 'Picks' })], webpages: { v1: pages } });
    const { router, user } = renderAt(`/webpages/${pages[1]!.id}?view=v1`);
    expect(await screen.findByRole('heading', { name: 'Article 3' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '← Picks' })).toHaveAttribute(
      'href',
      '/views/v1',
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location(router)).toBe(`/webpages/${pages[2]!.id}?view=v1`));
    await screen.findByRole('heading', { name: 'Article 5' });
    // The last webpage of the view: no Next, although the library has more.
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.keyboard('k');
    await waitFor(() => expect(location(router)).toBe(`/webpages/${pages[1]!.id}?view=v1`));
    await screen.findByRole('heading', { name: 'Article 3' });
    await user.keyboard('k');
    await waitFor(() => expect(location(router)).toBe(`/webpages/${pages[0]!.id}?view=v1`));
  });
});

describe('editing a view’s filters', () => {
  it('on a server that ignores them: recreates the view and moves to it', async () => {
    const old = makeView({
      id: 'old',
      title: 'Reading',
      sort: 1,
      filters: [{ id: 'f', type: 0, key: 'liked', operator: true }],
    });
    const api = fakeViewsApi({ views: [old], webpages: [], ignoreFilterPatch: true });
    const { router, user } = renderAt('/views/old/edit');
    await user.click(await screen.findByRole('button', { name: 'Remove filter: Liked' }));
    await user.click(screen.getByRole('button', { name: 'Add a filter' }));
    const builder = screen.getByRole('group', { name: 'New filter' });
    await user.selectOptions(within(builder).getByLabelText('Filter by'), 'Read status');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(router.state.location.pathname).not.toMatch(/^\/views\/old/));
    const [created] = api.views();
    expect(api.views()).toHaveLength(1);
    expect(created).toMatchObject({ title: 'Reading', sort: 1 });
    expect(created?.filters).toMatchObject([{ key: 'read-status', operator: false }]);
    expect(location(router)).toBe(`/views/${created!.id}`);
    expect(
      api
        .writes()
        .map(({ method, path }) => `${method} ${path}`)
        .filter((w) => !w.includes('preview')),
    ).toEqual(['PATCH /views/old', 'POST /views', 'DELETE /views/old']);
    expect(await screen.findByRole('heading', { name: 'Reading' })).toBeInTheDocument();
    // Back does not return to the dead view's editor.
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('save as view from the library', () => {
  it('turns the list’s filters and sort into a view, saying what it cannot express', async () => {
    const api = fakeViewsApi({ webpages: [] });
    const { router, user } = renderAt('/?liked=yes&label=research&ext=mhtml&sort=title_desc');
    await user.click(await screen.findByRole('button', { name: 'Save as view…' }));
    const panel = screen.getByRole('form', { name: 'Save as view' });
    expect(
      within(within(panel).getByRole('list', { name: 'Filters of the new view' }))
        .getAllByRole('listitem')
        .map((chip) => chip.textContent),
    ).toEqual(['Liked', 'Has label research']);
    expect(panel).toHaveTextContent('Title Z→A');
    expect(within(panel).getByRole('note')).toHaveTextContent(
      'Format (mhtml): a view cannot filter by format, so it shows every format.',
    );
    expect(within(panel).getByRole('link', { name: 'Customize…' })).toHaveAttribute(
      'href',
      '/views/new',
    );
    const title = within(panel).getByLabelText('View title');
    expect(title).toHaveValue('Liked and Has label research');
    await user.clear(title);
    await user.type(title, 'Liked research');
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/views\/view-/));
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/views',
        body: {
          title: 'Liked research',
          description: '',
          sort: 2,
          enableLimit: false,
          limit: 25,
          match: 'and',
          filters: [
            { type: 0, key: 'liked', operator: true },
            { type: 2, key: 'label', operator: 0, rightOperand: ['research'] },
          ],
        },
      },
    ]);
  });

  it('Customize… opens the editor with the same values and the note', async () => {
    fakeViewsApi({ webpages: [] });
    const { user } = renderAt('/?read=no&ext=html');
    await user.click(await screen.findByRole('button', { name: 'Save as view…' }));
    await user.click(screen.getByRole('link', { name: 'Customize…' }));
    expect(await screen.findByRole('heading', { name: 'New view' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Unread');
    expect(screen.getByRole('note')).toHaveTextContent('Format (html)');
    expect(
      within(screen.getByRole('list', { name: 'Filters of the view' }))
        .getAllByRole('listitem')
        .map((chip) => within(chip).getAllByRole('button')[0]!.textContent),
    ).toEqual(['Unread']);
  });
});
