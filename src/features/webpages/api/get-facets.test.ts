import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { saveConnectionSettings } from '../../../lib/connection-settings.ts';
import { facetsOptions } from './get-facets.ts';
import { webpageKeys } from './webpage-keys.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A server without `/facets` (HamsterBase answers unknown paths with its web UI) and one page. */
function serverWithoutFacets() {
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const url = new URL((input as Request).url);
      seen.push(`${url.host}${url.pathname.replace(/^\/public\/api\/v1/, '')}`);
      if (url.pathname.endsWith('/facets')) {
        return new Response('<!doctype html><title>HamsterBase</title>', {
          headers: { 'content-type': 'text/html' },
        });
      }
      const webpages = [{ id: 'a', link: 'https://news.example/1', labels: ['x'] }];
      return Response.json({ success: true, data: { webpages } });
    }),
  );
  return seen;
}

describe('facetsOptions', () => {
  it('asks a server for its facets once, then reads the recent webpages directly', async () => {
    saveConnectionSettings({ baseUrl: 'http://hamster.test', token: 't' });
    const seen = serverWithoutFacets();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    for (let open = 0; open < 5; open++) {
      // Every menu open after a change of labels (the facets are invalidated) asks again.
      await client.invalidateQueries({ queryKey: webpageKeys.facets() });
      const facets = await client.fetchQuery(facetsOptions());
      expect(facets).toEqual({
        hosts: [{ value: 'news.example', count: 1 }],
        labels: [{ value: 'x', count: 1 }],
        source: 'recent',
      });
    }
    expect(seen.filter((request) => request.endsWith('/facets'))).toEqual(['hamster.test/facets']);
    expect(seen.filter((request) => request.endsWith('/webpages'))).toHaveLength(5);

    // Another server is asked again.
    saveConnectionSettings({ baseUrl: 'http://other.test', token: 't' });
    await client.invalidateQueries({ queryKey: webpageKeys.facets() });
    await client.fetchQuery(facetsOptions());
    expect(seen.filter((request) => request.endsWith('/facets'))).toEqual([
      'hamster.test/facets',
      'other.test/facets',
    ]);
  });
});
