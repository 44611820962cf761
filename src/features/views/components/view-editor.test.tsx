import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { toastStore } from '../../../components/toast-store.ts';
import { ToastViewport } from '../../../components/toast-viewport.tsx';

import type { WebpagesView } from '../api/list-views.ts';
import { makeView, makeViewWebpage, fakeViewsApi } from '../../../test/fake-views-api.ts';
import type { CreateViewRequest } from '../view-draft.ts';
import { ViewEditor, type ViewEditorProps } from './view-editor.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  toastStore.clear();
});

const suggestions = {
  hosts: [
    { value: 'news.example.com', count: 12 },
    { value: 'blog.example.org', count: 5 },
    { value: 'shop.example.io:8443', count: 1 },
  ],
  labels: [
    { value: 'research', count: 9 },
    { value: 'recipes', count: 4 },
    { value: 'to-cite', count: 2 },
  ],
};

function renderEditor(props: Partial<ViewEditorProps> = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onSaved = vi.fn<(view: WebpagesView) => void>();
  const onCancel = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <ViewEditor suggestions={suggestions} onSaved={onSaved} onCancel={onCancel} {...props} />
      <ToastViewport />
    </QueryClientProvider>,
  );
  return { onSaved, onCancel, user: userEvent.setup() };
}

const form = () => screen.getByRole('form');
/** The messages of the notifications region (the form has status regions of its own). */
const messages = () =>
  [...document.querySelectorAll('.toasts [role="status"], .toasts [role="alert"]')].map(
    (toast) => `${toast.getAttribute('role')}: ${toast.querySelector('p')?.textContent}`,
  );
const chips = () =>
  within(screen.getByRole('list', { name: 'Filters of the view' }))
    .getAllByRole('listitem')
    .map((chip) => within(chip).getAllByRole('button')[0]!.textContent);

async function startFilter(user: ReturnType<typeof userEvent.setup>, kind: string) {
  await user.click(screen.getByRole('button', { name: 'Add a filter' }));
  const builder = screen.getByRole('group', { name: 'New filter' });
  await user.selectOptions(within(builder).getByLabelText('Filter by'), kind);
  return builder;
}

describe('ViewEditor', () => {
  it('builds a filter of every kind as readable chips and creates the view', async () => {
    const api = fakeViewsApi();
    const { user, onSaved } = renderEditor();

    // Host: is not, two hosts: one from the suggestions (searched), one typed.
    let builder = await startFilter(user, 'Host');
    await user.selectOptions(within(builder).getByLabelText('Host'), 'is not');
    const hosts = within(builder).getByRole('group', { name: 'Hosts' });
    expect(within(hosts).getAllByRole('checkbox')).toHaveLength(3);
    await user.type(within(hosts).getByLabelText('Search hosts'), 'blog');
    expect(within(hosts).getAllByRole('checkbox')).toHaveLength(1);
    await user.click(within(hosts).getByRole('checkbox', { name: 'blog.example.org' }));
    await user.clear(within(hosts).getByLabelText('Search hosts'));
    await user.type(within(hosts).getByLabelText('Search hosts'), 'https://Other.example:81/x');
    await user.click(within(hosts).getByRole('button', { name: 'Add “other.example:81”' }));
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Liked');
    await user.click(within(builder).getByRole('radio', { name: 'Not liked' }));
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Read status');
    expect(within(builder).getByRole('radio', { name: 'Unread' })).toBeChecked();
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Highlight count');
    await user.selectOptions(within(builder).getByLabelText('Highlights'), 'fewer than');
    await user.clear(within(builder).getByLabelText('Number of highlights'));
    await user.type(within(builder).getByLabelText('Number of highlights'), '3');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Date added');
    await user.selectOptions(within(builder).getByLabelText('Added'), 'before the start of');
    await user.selectOptions(within(builder).getByLabelText('Period'), 'this month');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Labels');
    await user.selectOptions(
      within(builder).getByLabelText('The webpage'),
      'has any of these labels',
    );
    const labels = within(builder).getByRole('group', { name: 'Labels' });
    await user.click(within(labels).getByRole('checkbox', { name: 'research' }));
    await user.type(within(labels).getByLabelText('Search labels'), 'brand new{Enter}');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    builder = await startFilter(user, 'Duplicate link');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    builder = await startFilter(user, 'Duplicate title');
    await user.click(within(builder).getByRole('radio', { name: 'Unique title' }));
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));

    expect(chips()).toEqual([
      'Host is none of blog.example.org, other.example:81',
      'Not liked',
      'Unread',
      'Highlights < 3',
      'Added before the start of this month',
      'Has any of the labels research, brand new',
      'Duplicate link',
      'Unique title',
    ]);

    await user.type(screen.getByLabelText('Title'), 'Everything');
    await user.click(screen.getByRole('radio', { name: 'Any filter' }));
    await user.selectOptions(screen.getByLabelText('Sort'), 'Random');
    await user.click(screen.getByRole('button', { name: 'Create view' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    const create = api.writes().find((request) => request.path === '/views');
    expect(create?.body).toEqual({
      title: 'Everything',
      description: '',
      sort: 0,
      enableLimit: false,
      limit: 25,
      match: 'or',
      filters: [
        {
          type: 2,
          key: 'host',
          operator: false,
          rightOperand: ['blog.example.org', 'other.example:81'],
        },
        { type: 0, key: 'liked', operator: false },
        { type: 0, key: 'read-status', operator: false },
        { type: 1, key: 'annotation', operator: 3, rightOperand: 3 },
        { type: 1, key: 'first-add-time', operator: 0, rightOperand: 2 },
        { type: 2, key: 'label', operator: 1, rightOperand: ['research', 'brand new'] },
        { type: 0, key: 'link-duplicate', operator: true },
        { type: 0, key: 'title-duplicate', operator: false },
      ] satisfies CreateViewRequest['filters'],
    });
    expect(onSaved.mock.calls[0]?.[0]).toMatchObject({ title: 'Everything', sort: 0 });
    await waitFor(() => expect(messages()).toEqual(['status: Created the view “Everything”']));
  });

  it('edits and removes chips', async () => {
    fakeViewsApi();
    const { user } = renderEditor({
      initial: {
        filters: [
          { type: 0, key: 'liked', operator: true },
          { type: 1, key: 'first-add-time', operator: 1, rightOperand: 4 },
          { type: 2, key: 'host', operator: true, rightOperand: ['example.org'] },
        ],
      },
    });
    expect(chips()).toEqual(['Liked', 'Added after the start of last week', 'Host is example.org']);
    await user.click(
      screen.getByRole('button', { name: 'Edit filter: Added after the start of last week' }),
    );
    const builder = screen.getByRole('group', { name: 'Edit filter' });
    expect(within(builder).getByLabelText('Period')).toHaveValue('4');
    await user.selectOptions(within(builder).getByLabelText('Period'), 'yesterday');
    await user.click(within(builder).getByRole('button', { name: 'Update filter' }));
    await user.click(screen.getByRole('button', { name: 'Remove filter: Liked' }));
    expect(chips()).toEqual(['Added after the start of yesterday', 'Host is example.org']);

    // Cancel leaves the filter as it was.
    await user.click(screen.getByRole('button', { name: 'Edit filter: Host is example.org' }));
    const hostBuilder = screen.getByRole('group', { name: 'Edit filter' });
    await user.click(within(hostBuilder).getByRole('checkbox', { name: 'news.example.com' }));
    await user.click(within(hostBuilder).getByRole('button', { name: 'Cancel' }));
    expect(chips()).toEqual(['Added after the start of yesterday', 'Host is example.org']);
    await user.click(
      screen.getByRole('button', { name: 'Remove filter: Added after the start of yesterday' }),
    );
    await user.click(screen.getByRole('button', { name: 'Remove filter: Host is example.org' }));
    expect(screen.getByText('No filters: the view shows every webpage.')).toBeInTheDocument();
  });

  it('refuses incomplete filters and an invalid view, sending nothing', async () => {
    const api = fakeViewsApi();
    const { user, onSaved } = renderEditor();

    let builder = await startFilter(user, 'Host');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    expect(within(builder).getByRole('alert')).toHaveTextContent('Choose at least one host.');
    await user.selectOptions(within(builder).getByLabelText('Filter by'), 'Labels');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    expect(within(builder).getByRole('alert')).toHaveTextContent('Choose at least one label.');
    await user.selectOptions(within(builder).getByLabelText('Filter by'), 'Highlight count');
    await user.clear(within(builder).getByLabelText('Number of highlights'));
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    expect(within(builder).getByRole('alert')).toHaveTextContent(
      'The number of highlights must be a whole number, 0 or more.',
    );

    // Saving with the builder still open asks to finish it first.
    await user.type(screen.getByLabelText('Title'), 'Draft');
    await user.click(screen.getByRole('button', { name: 'Create view' }));
    expect(
      screen.getByText('Add or cancel the filter you are building first.'),
    ).toBeInTheDocument();
    builder = screen.getByRole('group', { name: 'New filter' });
    await user.click(within(builder).getByRole('button', { name: 'Cancel' }));

    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByLabelText('Show only the first'));
    const limit = screen.getByLabelText('Number of webpages');
    await user.clear(limit);
    await user.type(limit, '0');
    await user.click(screen.getByRole('button', { name: 'Create view' }));
    expect(screen.getByText('A view needs a title.')).toBeInTheDocument();
    expect(
      screen.getByText('The limit must be a whole number from 1 to 100,000.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveFocus();
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(api.writes().filter((request) => request.path !== '/views/preview')).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Title'), 'Top ten');
    await user.clear(limit);
    await user.type(limit, '10');
    await user.click(screen.getByRole('button', { name: 'Create view' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.writes().find((request) => request.path === '/views')?.body).toMatchObject({
      title: 'Top ten',
      enableLimit: true,
      limit: 10,
      filters: [],
    });
  });

  it('shows a live preview that follows the filters, before saving', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => makeViewWebpage(i + 1, { liked: i < 4 }));
    const api = fakeViewsApi({
      webpages: pages,
      preview: (body) => {
        const filters = body.filters as { key: string; operator: boolean }[];
        const liked = filters.some((filter) => filter.key === 'liked' && filter.operator);
        const shown = liked ? pages.filter((page) => page.liked) : pages;
        return { count: shown.length, webpages: shown.slice(0, 10) };
      },
    });
    const { user } = renderEditor();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('30 webpages match')).toBeInTheDocument();
    expect(within(preview).getAllByRole('listitem')).toHaveLength(10);
    expect(within(preview).getByText('and 20 webpages more.')).toBeInTheDocument();

    const builder = await startFilter(user, 'Liked');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    expect(await within(preview).findByText('4 webpages match')).toBeInTheDocument();
    expect(
      within(within(preview).getByRole('list'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(
      pages
        .slice(0, 4)
        .map((page) => `${page.title}site${(pages.indexOf(page) + 1) % 7}.example.com`),
    );
    const previews = api.requests.filter((request) => request.path === '/views/preview');
    expect(previews.at(-1)?.body).toEqual({
      title: 'Preview',
      sort: 4,
      enableLimit: false,
      limit: 25,
      match: 'and',
      filters: [{ type: 0, key: 'liked', operator: true }],
    });
    // Typing a title does not preview again: the previewed input stays the same, so the panel
    // waits for nothing (a changed input marks it busy until its debounced request is answered).
    const before = previews.length;
    await user.type(screen.getByLabelText('Title'), 'Liked');
    expect(preview).toHaveAttribute('aria-busy', 'false');
    expect(api.requests.filter((request) => request.path === '/views/preview')).toHaveLength(
      before,
    );
  });

  it('on a server without a preview: previews from the list, and writes nothing', async () => {
    const api = fakeViewsApi({
      noPreview: true,
      intercept: ({ method, path }) =>
        method === 'GET' && path === '/webpages'
          ? Response.json({ success: true, data: { webpages: [makeViewWebpage(1)] } })
          : undefined,
    });
    renderEditor();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('1 webpage matches')).toBeInTheDocument();
    expect(within(preview).getByText('Article 1')).toBeInTheDocument();
    // The only request that is not a read is the one question whether the server has a preview.
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/views/preview', body: expect.anything() as unknown },
    ]);
    expect(api.views()).toEqual([]);
  });

  it('on a server without a preview: says so for filters the list cannot express', async () => {
    const view = makeView({
      filters: [{ id: 'f1', type: 1, key: 'first-add-time', operator: 1, rightOperand: 2 }],
    });
    const api = fakeViewsApi({ views: [view], noPreview: true });
    renderEditor({ view });
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(
      await within(preview).findByText('Preview not available on this server'),
    ).toBeInTheDocument();
    expect(api.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /views/preview',
    ]);
  });

  it('edits a view: prefilled, saved with PATCH on a server that keeps filters', async () => {
    const view = makeView({
      id: 'v1',
      title: 'Unread news',
      description: 'Morning',
      sort: 3,
      enableLimit: true,
      limit: 10,
      match: 'or',
      filters: [{ id: 'f1', type: 0, key: 'read-status', operator: false }],
    });
    const api = fakeViewsApi({ views: [view] });
    const { user, onSaved } = renderEditor({ view });
    expect(screen.getByRole('heading', { name: 'Edit view' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Unread news');
    expect(screen.getByLabelText('Description')).toHaveValue('Morning');
    expect(screen.getByLabelText('Sort')).toHaveValue('3');
    expect(screen.getByLabelText('Show only the first')).toBeChecked();
    expect(screen.getByLabelText('Number of webpages')).toHaveValue(10);
    expect(screen.getByRole('radio', { name: 'Any filter' })).toBeChecked();
    expect(chips()).toEqual(['Unread']);

    const builder = await startFilter(user, 'Liked');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    await user.selectOptions(screen.getByLabelText('Sort'), 'Title Z→A');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(onSaved.mock.calls[0]?.[0]).toMatchObject({ id: 'v1', sort: 2 });
    await waitFor(() => expect(messages()).toEqual(['status: Saved the view “Unread news”']));
    expect(api.writes().filter((request) => request.path !== '/views/preview')).toEqual([
      {
        method: 'PATCH',
        path: '/views/v1',
        body: {
          title: 'Unread news',
          description: 'Morning',
          sort: 2,
          enableLimit: true,
          limit: 10,
          match: 'or',
          filters: [
            { type: 0, key: 'read-status', operator: false },
            { type: 0, key: 'liked', operator: true },
          ],
        },
      },
    ]);
  });

  it('keeps the form when saving fails part-way, and says what happened', async () => {
    const view = makeView({ id: 'v1', title: 'Keep me', filters: [] });
    fakeViewsApi({
      views: [view],
      ignoreFilterPatch: true,
      intercept: ({ method, path }) =>
        method === 'POST' && path === '/views'
          ? Response.json({ message: 'disk full' }, { status: 500 })
          : undefined,
    });
    const { user, onSaved } = renderEditor({ view });
    const builder = await startFilter(user, 'Liked');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent(/Could not save the view: .*not the filters.*disk full/);
    expect(chips()).toEqual(['Liked']);
    expect(onSaved).not.toHaveBeenCalled();
    // Said once, in the form: no message claims it was saved.
    expect(messages()).toEqual([]);
  });

  it('says when the server made it a new view to change its filters', async () => {
    const view = makeView({ id: 'v1', title: 'Moved', filters: [] });
    fakeViewsApi({ views: [view], ignoreFilterPatch: true });
    const { user, onSaved } = renderEditor({ view });
    const builder = await startFilter(user, 'Liked');
    await user.click(within(builder).getByRole('button', { name: 'Add filter' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    await waitFor(() =>
      expect(messages()).toEqual([
        'status: Saved the view “Moved”. This server cannot change the filters of a view, so ' +
          'Folio saved it as a new view and deleted the old one.',
      ]),
    );
  });
});
