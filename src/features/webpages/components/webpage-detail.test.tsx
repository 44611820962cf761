import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation, useParams } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { toastStore } from '../../../components/toast-store.ts';
import { ToastViewport } from '../../../components/toast-viewport.tsx';
import { formatDateTime, formatRelativeTime } from '../../../lib/display.ts';
import { fakeArchive, makeWebpage } from '../../../test/fake-archive.ts';
import type { Webpage } from '../api/get-webpage.ts';
import { webpageKeys } from '../api/webpage-keys.ts';
import { defaultListFilters } from '../filters.ts';
import { webpageLocationState } from '../list-context.ts';
import { WebpageDetail } from './webpage-detail.tsx';

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

function DetailRoute() {
  const params = useParams();
  return (
    <WebpageDetail webpageId={params.id ?? ''} renderPreview={(w) => <p>Preview of {w.ext}</p>} />
  );
}

function ListStandIn() {
  const { search } = useLocation();
  return (
    <>
      <h1>Library</h1>
      <p>List search: {search || '(none)'}</p>
    </>
  );
}

function renderDetail(entry: { id?: string; state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/webpages/:id', Component: DetailRoute },
      { path: '/', Component: ListStandIn },
    ],
    { initialEntries: [{ pathname: `/webpages/${entry.id ?? id}`, state: entry.state }] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastViewport />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

beforeEach(() => {
  toastStore.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WebpageDetail', () => {
  it('shows the metadata as text, with a safe external link and the preview slot', async () => {
    fakeArchive([webpage()]);
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
    for (const name of ['Like', 'Mark as read', 'Download original', 'Delete', 'Edit title']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('never makes a link of a non-http URL', async () => {
    fakeArchive([webpage({ link: 'javascript:alert(1)' })]);
    renderDetail();
    expect(await screen.findByText('javascript:alert(1)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'javascript:alert(1)' })).toBeNull();
  });

  it('likes at once and rolls back with the server message when it refuses', async () => {
    const archive = fakeArchive([webpage()]);
    let answer: () => void = () => {};
    archive.delay = () => new Promise((resolve) => (answer = resolve));
    archive.refuse = () => Response.json({ message: 'database is locked' }, { status: 500 });
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Like' }));
    // Optimistic: shown before the server answered.
    expect(await screen.findByRole('button', { name: 'Unlike' })).toBeInTheDocument();
    expect(archive.writes().map((r) => [r.method, r.body])).toEqual([['PATCH', { liked: true }]]);

    answer();
    expect(await screen.findByRole('button', { name: 'Like' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not like “An archived article”: database is locked',
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('marks as read, says so, and Undo marks it unread again', async () => {
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
    expect(archive.writes()[0]?.body).toEqual({ read: true });
    expect(archive.pages.get(id)?.read).toBe(true);
    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent('Marked “An archived article” as read');

    await user.click(
      within(done).getByRole('button', { name: 'Undo: Marked “An archived article” as read' }),
    );
    expect(await screen.findByRole('button', { name: 'Mark as read' })).toBeInTheDocument();
    await waitFor(() => expect(archive.pages.get(id)?.read).toBe(false));
    // The undo says so too, without another Undo; one message per page and field.
    const undone = await screen.findByText('Marked “An archived article” as unread');
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(
      within(undone.closest('[role="status"]')!).queryByRole('button', { name: /^Undo/ }),
    ).toBeNull();
  });

  it('likes with a message; liking again replaces the message', async () => {
    fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Like' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Liked “An archived article”');
    await user.click(await screen.findByRole('button', { name: 'Unlike' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Unliked “An archived article”'),
    );
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('shows dates relative to now, with the exact date and time on hover', async () => {
    const day = 24 * 60 * 60 * 1000;
    const added = Date.now() - 3 * day;
    const captured = Date.now() - 60 * day;
    fakeArchive([webpage({ firstAddTime: added, createTime: captured })]);
    renderDetail();
    const addedTime = await screen.findByText(formatRelativeTime(added));
    expect(addedTime.tagName).toBe('TIME');
    expect(addedTime).toHaveAttribute('title', formatDateTime(added));
    expect(addedTime).toHaveAttribute('datetime', new Date(added).toISOString());
    expect(screen.getByText(formatRelativeTime(captured))).toHaveAttribute(
      'title',
      formatDateTime(captured),
    );
    expect(addedTime).toHaveTextContent(/3 days ago/);
  });
});

describe('inline editing', () => {
  it('edits the title: Enter saves, Escape cancels without sending', async () => {
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit title' }));
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, 'A better title{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
    expect(archive.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Edit title' }));
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'A better title{Enter}');
    expect(await screen.findByRole('heading', { name: 'A better title' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
    expect(archive.writes().map((r) => r.body)).toEqual([{ title: 'A better title' }]);
    expect(archive.pages.get(id)?.title).toBe('A better title');

    // Saved, with Undo: the old title comes back on the server and on the page.
    const saved = await screen.findByRole('status');
    expect(saved).toHaveTextContent('Saved the title');
    await user.click(within(saved).getByRole('button', { name: 'Undo: Saved the title' }));
    expect(await screen.findByRole('heading', { name: 'An archived article' })).toBeInTheDocument();
    expect(archive.writes().map((r) => r.body)).toEqual([
      { title: 'A better title' },
      { title: 'An archived article' },
    ]);
    expect(await screen.findByRole('status')).toHaveTextContent('Restored the title');
  });

  it('edits the excerpt with Save', async () => {
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit excerpt' }));
    const field = screen.getByRole('textbox', { name: 'Excerpt' });
    await user.clear(field);
    await user.type(field, 'Shorter.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Shorter.')).toBeInTheDocument();
    expect(archive.writes().map((r) => r.body)).toEqual([{ excerpt: 'Shorter.' }]);
  });

  it('validates the link as an absolute http(s) URL before sending', async () => {
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit link' }));
    const field = screen.getByRole('textbox', { name: 'Link' });
    for (const bad of ['not a url', 'ftp://files.example.com/x', '/relative/path']) {
      await user.clear(field);
      await user.type(field, `${bad}{Enter}`);
      expect(await screen.findByRole('alert')).toHaveTextContent('absolute http or https URL');
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(archive.writes()).toEqual([]);

    await user.clear(field);
    await user.type(field, 'https://example.org/moved{Enter}');
    expect(
      await screen.findByRole('link', { name: 'https://example.org/moved' }),
    ).toBeInTheDocument();
    expect(archive.writes().map((r) => r.body)).toEqual([{ link: 'https://example.org/moved' }]);
    expect(await screen.findByRole('status')).toHaveTextContent('Saved the link');
  });

  it('keeps the typed text and shows the server message when a save fails', async () => {
    const archive = fakeArchive([webpage()]);
    // HamsterBase refuses to clear a link.
    archive.refuse = () => Response.json({ message: 'link is invalid' }, { status: 400 });
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit link' }));
    const field = screen.getByRole('textbox', { name: 'Link' });
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not save the link: link is invalid',
    );
    // Said once, next to the field (which keeps the typed text); no message says it was saved.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('status')).toBeNull();
    expect(archive.writes().map((r) => r.body)).toEqual([{ link: null }]);
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), ' (draft)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('link is invalid');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue(
      'An archived article (draft)',
    );
    expect(screen.getByRole('heading', { name: 'An archived article' })).toBeInTheDocument();
  });
});

describe('labels', () => {
  it('suggests labels in use, adds and removes labels', async () => {
    const archive = fakeArchive([
      webpage({ labels: ['news'] }),
      makeWebpage(1, { labels: ['science', 'news'] }),
      makeWebpage(2, { labels: ['recipes'] }),
    ]);
    renderDetail();
    const user = userEvent.setup();

    const input = await screen.findByRole('combobox', { name: 'New label' });
    const suggestions = () =>
      [...document.querySelectorAll(`#${CSS.escape(input.getAttribute('list')!)} option`)].map(
        (option) => option.getAttribute('value'),
      );
    // Labels in use (facets), without the page's own.
    await waitFor(() => expect(suggestions()).toEqual(['recipes', 'science']));

    await user.type(input, 'science{Enter}');
    const labels = screen.getByRole('list', { name: 'Labels' });
    expect(within(labels).getByText('science')).toBeInTheDocument();
    await waitFor(() => expect(archive.pages.get(id)?.labels).toEqual(['news', 'science']));
    await waitFor(() => expect(suggestions()).toEqual(['recipes']));

    expect(await screen.findByRole('status')).toHaveTextContent('Added the label “science”');

    await user.click(screen.getByRole('button', { name: 'Remove label news' }));
    await waitFor(() => expect(archive.pages.get(id)?.labels).toEqual(['science']));
    expect(within(labels).queryByText('news')).toBeNull();
    expect(archive.writes().map((r) => r.body)).toEqual([
      { labels: ['news', 'science'] },
      { labels: ['science'] },
    ]);
    const removed = await screen.findByText('Removed the label “news”');

    // Undo puts the label back.
    await user.click(
      within(removed.closest('[role="status"]')!).getByRole('button', {
        name: 'Undo: Removed the label “news”',
      }),
    );
    await waitFor(() => expect(archive.pages.get(id)?.labels).toEqual(['science', 'news']));
    expect(await within(labels).findByText('news')).toBeInTheDocument();
    expect(await screen.findByText('Added the label “news”')).toBeInTheDocument();
  });

  it('keeps a label that could not be added in the field, and says why', async () => {
    const archive = fakeArchive([webpage({ labels: [] })]);
    archive.refuse = () => Response.json({ message: 'label too long' }, { status: 400 });
    renderDetail();
    const user = userEvent.setup();
    await user.type(await screen.findByRole('combobox', { name: 'New label' }), 'refused{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not add the label “refused”: label too long',
    );
    expect(screen.getByRole('combobox', { name: 'New label' })).toHaveValue('refused');
    expect(screen.queryByRole('list', { name: 'Labels' })).toBeNull();
  });

  it('puts a label back when the server refuses to remove it', async () => {
    const archive = fakeArchive([webpage({ labels: ['keep'] })]);
    archive.refuse = () => Response.json({ message: 'read-only archive' }, { status: 403 });
    renderDetail();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Remove label keep' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not remove the label “keep”: read-only archive',
    );
    expect(screen.getByRole('button', { name: 'Remove label keep' })).toBeInTheDocument();
  });

  it('suggests labels from recent pages when the server has no facets', async () => {
    fakeArchive([webpage({ labels: [] }), makeWebpage(1, { labels: ['from-the-list'] })], {
      facets: 'missing',
    });
    renderDetail();
    const input = await screen.findByRole('combobox', { name: 'New label' });
    await waitFor(() =>
      expect(
        document.querySelector(`#${CSS.escape(input.getAttribute('list')!)} option`),
      ).toHaveAttribute('value', 'from-the-list'),
    );
  });
});

describe('delete with undo', () => {
  it('goes back to the list at once; Undo sends nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const archive = fakeArchive([webpage()]);
    const filters = { ...defaultListFilters, liked: 'yes' as const };
    const { router, queryClient } = renderDetail({ state: webpageLocationState(filters) });
    queryClient.setQueryData(webpageKeys.list(defaultListFilters), {
      items: [{ ...webpage(), link: webpage().link ?? null, annotateCount: 1 }],
      hasNext: false,
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    // Back to the list it came from.
    expect(router.state.location.search).toBe('?liked=yes');
    // Gone from cached lists at once.
    expect(
      queryClient.getQueryData<{ items: unknown[] }>(webpageKeys.list(defaultListFilters))?.items,
    ).toEqual([]);
    expect(screen.getByText('Deleted “An archived article”')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Restored “An archived article”')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(archive.writes()).toEqual([]);
    expect(archive.pages.has(id)).toBe(true);
  });

  it('sends the DELETE when the undo window closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted “An archived article”')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(archive.writes()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1500));
    await waitFor(() =>
      expect(archive.writes().map((r) => [r.method, r.path])).toEqual([
        ['DELETE', `/webpages/${id}`],
      ]),
    );
    expect(archive.pages.has(id)).toBe(false);
    await waitFor(() => expect(screen.queryByText('Deleted “An archived article”')).toBeNull());
  });

  it('sends the DELETE at once, with keepalive, when the page goes away', async () => {
    const archive = fakeArchive([webpage()]);
    renderDetail();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted “An archived article”')).toBeInTheDocument();
    expect(archive.writes()).toEqual([]);

    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(archive.writes()).toHaveLength(1));
    expect(archive.writes()[0]).toMatchObject({
      method: 'DELETE',
      path: `/webpages/${id}`,
      keepalive: true,
    });
  });

  it('says so when the server refuses the delete', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const archive = fakeArchive([webpage()]);
    archive.refuse = () => Response.json({ message: 'disk is full' }, { status: 500 });
    renderDetail();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(
      await screen.findByText('Could not delete “An archived article”: disk is full'),
    ).toBeInTheDocument();
  });
});

describe('download', () => {
  it('saves the original bytes under the title with the format extension', async () => {
    const bytes = Uint8Array.from([0x4d, 0x49, 0x4d, 0x45, 0x00, 0xff, 0x80, 0x0a]);
    const archive = fakeArchive([webpage({ title: 'Report: Q1/Q2 "final"?' })], {
      contents: { [id]: bytes },
    });
    const saved: { name: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          const url = `blob:test/${blobs.size}`;
          blobs.set(url, blob);
          return url;
        },
        revokeObjectURL: () => {},
      }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href')!)! });
    });
    renderDetail();

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Download original' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('Report Q1 Q2 final.mhtml');
    const read = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(saved[0]!.blob);
    });
    expect(new Uint8Array(read)).toEqual(bytes);
    expect(archive.requests.some((r) => r.path === `/webpages/${id}/content`)).toBe(true);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Downloaded “Report Q1 Q2 final.mhtml” (8 B)',
    );
  });

  it('says why the original could not be downloaded', async () => {
    fakeArchive([webpage()]);
    const archiveFetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        return new URL(request.url).pathname.endsWith('/content')
          ? Response.json({ message: 'blob missing on disk' }, { status: 500 })
          : archiveFetch(input, init);
      }),
    );
    renderDetail();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Download original' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not download “An archived article”: blob missing on disk',
    );
    expect(screen.getByRole('button', { name: 'Download original' })).toBeEnabled();
  });
});

describe('keyboard and list navigation', () => {
  it('l, r, e and Delete act on the page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const archive = fakeArchive([webpage()]);
    renderDetail();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await screen.findByRole('heading', { name: 'An archived article' });

    await user.keyboard('l');
    expect(await screen.findByRole('button', { name: 'Unlike' })).toBeInTheDocument();
    await user.keyboard('r');
    expect(await screen.findByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
    await waitFor(() =>
      expect(archive.writes().map((r) => r.body)).toEqual([{ liked: true }, { read: true }]),
    );

    await user.keyboard('e');
    const title = screen.getByRole('textbox', { name: 'Title' });
    expect(title).toHaveFocus();
    // While editing, letters are typed, not shortcuts.
    await user.keyboard('lr{Escape}');
    expect(archive.writes()).toHaveLength(2);

    await user.keyboard('{Delete}');
    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(archive.writes().at(-1)?.method).toBe('DELETE'));
  });

  it('moves to the next and previous webpage of the list, across its pages', async () => {
    const archive = fakeArchive(Array.from({ length: 32 }, (_, n) => makeWebpage(n + 1)));
    // Newest first: page 1 holds 32..3, page 2 holds 2 and 1.
    const last = makeWebpage(3);
    const { router } = renderDetail({
      id: last.id,
      state: webpageLocationState(defaultListFilters),
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Article 3' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());

    await user.keyboard('j');
    expect(await screen.findByRole('heading', { name: 'Article 2' })).toBeInTheDocument();
    // The list's page 2 was loaded to find it, and is now the detail's list.
    expect(archive.listRequests().some((r) => r.search.get('per_page') === '61')).toBe(true);
    expect(router.state.location.state).toEqual({ listSearch: 'page=2' });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Article 1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled());

    await user.keyboard('{ArrowLeft}');
    expect(await screen.findByRole('heading', { name: 'Article 2' })).toBeInTheDocument();
    await user.keyboard('k');
    expect(await screen.findByRole('heading', { name: 'Article 3' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ listSearch: '' });
    await user.click(screen.getByRole('link', { name: '← Library' }));
    expect(await screen.findByText('List search: (none)')).toBeInTheDocument();
  });

  it('opens with the title being edited when the list asked for it', async () => {
    fakeArchive([webpage()]);
    const { router } = renderDetail({ state: webpageLocationState(defaultListFilters, true) });
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveFocus();
    // For this visit only.
    await waitFor(() => expect(router.state.location.state).toEqual({ listSearch: '' }));
  });
});

describe('navigation from another context', () => {
  it('uses the navigation the route passes (a view) instead of the list', async () => {
    const archive = fakeArchive([webpage()]);
    const go = vi.fn(async () => {});
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter(
      [
        {
          path: '/webpages/:id',
          Component: () => (
            <WebpageDetail
              webpageId={id}
              navigation={{
                canGoPrevious: false,
                canGoNext: true,
                moving: false,
                error: null,
                go,
                back: { href: '/views/v1', label: '← Reading list' },
              }}
            />
          ),
        },
        { path: '/views/v1', Component: () => <h1>The view</h1> },
      ],
      { initialEntries: [`/webpages/${id}`] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ToastViewport />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'An archived article' });
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.keyboard('j');
    expect(go.mock.calls).toEqual([[1], [1]]);
    // The list is not loaded for nothing (only the link's other captures are asked for).
    expect(archive.listRequests().filter((request) => !request.search.has('link'))).toEqual([]);
    expect(screen.getByRole('link', { name: '← Reading list' })).toHaveAttribute(
      'href',
      '/views/v1',
    );
    // A delete goes back to the view.
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'The view' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
  });
});
