import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ViewFeedSection } from './view-feed-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** A server with the feed extension (`supported`) or without it (404, like HamsterBase). */
function stubFeedApi(supported: boolean) {
  const calls: string[] = [];
  let secret = 0;
  let enabled = false;
  const state = () =>
    enabled
      ? { enabled: true, path: `/feeds/views/v1/webpages?key=secret-${secret}` }
      : { enabled: false };
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      calls.push(`${request.method} ${path}`);
      if (!supported)
        return json({ success: false, error: 'not_found', message: 'not found' }, 404);
      if (request.method === 'POST' && path.endsWith('/feed/rotate')) {
        enabled = true;
        secret++;
      } else if (request.method === 'POST') {
        if (!enabled) secret++;
        enabled = true;
      } else if (request.method === 'DELETE') enabled = false;
      return json({ success: true, data: state() });
    }),
  );
  return calls;
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ViewFeedSection viewId="v1" />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'RSS feed' });
}

describe('ViewFeedSection', () => {
  it('off, turned on (the address under the base URL), rotated after asking, turned off', async () => {
    const calls = stubFeedApi(true);
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));
    const address = await screen.findByLabelText('Feed address');
    expect(address).toHaveValue(`${location.origin}/feeds/views/v1/webpages?key=secret-1`);

    await user.click(screen.getByRole('button', { name: 'Rotate' }));
    expect(screen.getByText('Make a new address? The current one stops working.')).toBeVisible();
    expect(calls.filter((call) => call.endsWith('/rotate'))).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Make a new address' }));
    expect(await screen.findByDisplayValue(/key=secret-2$/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeVisible();
    expect(calls).toEqual([
      'GET /public/api/v1/views/v1/feed',
      'POST /public/api/v1/views/v1/feed',
      'POST /public/api/v1/views/v1/feed/rotate',
      'DELETE /public/api/v1/views/v1/feed',
    ]);
  });

  it('a server without feeds (HamsterBase): says where they are managed, offers nothing', async () => {
    const calls = stubFeedApi(false);
    const section = renderSection();
    expect(await screen.findByText(/managed in HamsterBase/)).toBeVisible();
    expect(section.querySelectorAll('button')).toHaveLength(0);
    expect(calls).toEqual(['GET /public/api/v1/views/v1/feed']);
  });
});
