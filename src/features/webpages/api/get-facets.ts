import { queryOptions } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import type { components } from '../../../../shared/contract/schema.gen.ts';
import { callOptional } from '../../../api/server-capabilities.ts';
import { hostOf } from '../../../lib/urls.ts';
import { webpageKeys } from './webpage-keys.ts';

export type FacetValue = components['schemas']['FacetValue'];

export interface WebpageFacets {
  hosts: FacetValue[];
  labels: FacetValue[];
  /**
   * `server`: every live webpage (Folio's `/facets`); `recent`: collected from the most recent
   * webpages, because the server has no facets (a real HamsterBase).
   */
  source: 'server' | 'recent';
}

/** How the fallback reads the list: this many pages of this many webpages, newest first. */
export const RECENT_PAGES = 5;
export const RECENT_PER_PAGE = 200;

function byCount(counts: Map<string, number>): FacetValue[] {
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

async function collectFromRecentPages(signal: AbortSignal): Promise<WebpageFacets> {
  const hosts = new Map<string, number>();
  const labels = new Map<string, number>();
  for (let page = 1; page <= RECENT_PAGES; page++) {
    const { webpages } = await unwrap(
      apiClient.GET('/webpages', {
        params: { query: { page, per_page: RECENT_PER_PAGE, sort: 'first_add_time_desc' } },
        signal,
      }),
    );
    for (const webpage of webpages) {
      const host = hostOf(webpage.link);
      if (host) hosts.set(host, (hosts.get(host) ?? 0) + 1);
      for (const label of new Set(webpage.labels)) {
        if (label) labels.set(label, (labels.get(label) ?? 0) + 1);
      }
    }
    if (webpages.length < RECENT_PER_PAGE) break;
  }
  return { hosts: byCount(hosts), labels: byCount(labels), source: 'recent' };
}

/**
 * The hosts and labels in use, most used first: Folio's `/facets`, else (a server without it)
 * what the most recent webpages have. Whether the server has `/facets` is asked once per server.
 */
export function facetsOptions() {
  return queryOptions({
    queryKey: webpageKeys.facets(),
    queryFn: async ({ signal, client }): Promise<WebpageFacets> => {
      const facets = await callOptional(client, 'facets', () =>
        unwrap(apiClient.GET('/facets', { signal })),
      );
      return facets ? { ...facets, source: 'server' } : collectFromRecentPages(signal);
    },
    staleTime: 60_000,
  });
}
