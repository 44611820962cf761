import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { toastStore } from '../../../components/toast-store.ts';
import { ToastViewport } from '../../../components/toast-viewport.tsx';
import {
  CONNECTION_STORAGE_KEY,
  loadConnectionSettings,
} from '../../../lib/connection-settings.ts';
import { SettingsPage } from './settings-page.tsx';

function renderSettings() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/settings', Component: SettingsPage },
      { path: '/', Component: () => <h1>Library</h1> },
    ],
    { initialEntries: ['/settings'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastViewport />
    </QueryClientProvider>,
  );
  return { queryClient, router };
}

function stubFetch(answer: () => Response) {
  const fetchMock = vi.fn<typeof fetch>(async () => answer());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function enterAndTest(baseUrl: string, token: string) {
  const user = userEvent.setup();
  const url = screen.getByLabelText('Base URL');
  await user.clear(url);
  await user.type(url, baseUrl);
  await user.type(screen.getByLabelText('Token'), token);
  await user.click(screen.getByRole('button', { name: 'Test connection' }));
  return user;
}

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  toastStore.clear();
});

describe('SettingsPage connection check', () => {
  it('tests the entered values (not the saved ones) and names the server', async () => {
    const fetchMock = stubFetch(() =>
      Response.json({ success: true, data: { version: '0.1.0', name: 'folio' } }),
    );
    renderSettings();
    await enterAndTest('archive.test:5178/', 'abc');

    expect(await screen.findByRole('status')).toHaveTextContent('Connected to folio 0.1.0');
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(request.url).toBe('http://archive.test:5178/public/api/v1/version');
    expect(request.headers.get('Authorization')).toBe('Bearer abc');
    // Testing saves nothing.
    expect(localStorage.getItem(CONNECTION_STORAGE_KEY)).toBeNull();
  });

  it('recognizes HamsterBase', async () => {
    stubFetch(() => Response.json({ success: true, data: { version: '0.9.2' } }));
    renderSettings();
    await enterAndTest('http://hb.test', 't');
    expect(await screen.findByText('Connected to HamsterBase 0.9.2')).toBeInTheDocument();
  });

  it('reports a refused token', async () => {
    stubFetch(() => Response.json({ message: 'Invalid token' }, { status: 401 }));
    renderSettings();
    await enterAndTest('http://hb.test', 'wrong');
    expect(await screen.findByRole('status')).toHaveTextContent('Token refused (401)');
  });

  it('reports an unreachable server', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderSettings();
    await enterAndTest('http://down.test', 't');
    expect(await screen.findByRole('status')).toHaveTextContent('Server unreachable');
  });

  it('reports a server that answers with a web page', async () => {
    stubFetch(
      () =>
        new Response('<!doctype html><title>Some app</title>', {
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    renderSettings();
    await enterAndTest('http://other.test', 't');
    expect(await screen.findByRole('status')).toHaveTextContent('Not a compatible server');
  });

  it('refuses an address that is not http(s) without calling anything', async () => {
    const fetchMock = stubFetch(() => Response.json({}));
    renderSettings();
    await enterAndTest('ftp://files.test', 't');
    expect(screen.getByText(/Enter an http:\/\/ or https:\/\/ address/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('SettingsPage save', () => {
  it('stores the settings, empties the cache and goes to the library', async () => {
    const { queryClient, router } = renderSettings();
    queryClient.setQueryData(['webpages', 'list', {}], { items: [], hasNext: false });
    const user = userEvent.setup();
    const url = screen.getByLabelText('Base URL');
    await user.clear(url);
    await user.type(url, 'https://hb.example.com/public/api/v1');
    await user.type(screen.getByLabelText('Token'), ' tok ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(loadConnectionSettings()).toEqual({ baseUrl: 'https://hb.example.com', token: 'tok' });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Saved: Folio now uses the archive at https://hb.example.com',
    );
  });

  it('shows and hides the token', async () => {
    renderSettings();
    const user = userEvent.setup();
    const token = screen.getByLabelText('Token');
    expect(token).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show token' }));
    expect(token).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide token' }));
    expect(token).toHaveAttribute('type', 'password');
  });
});
