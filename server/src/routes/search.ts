import { badRequest, notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import { parseQuery } from '../store/search.ts';
import type { RouteContext } from './context.ts';
import { toSearchResult } from './serialize.ts';
import { listFilters, paging } from './webpages.ts';

export function registerSearchRoutes(registry: OperationRegistry, context: RouteContext): void {
  registry.register('searchWebpages', async ({ query }) => {
    // A server without full-text search (the test switch FOLIO_DISABLE_SEARCH=1).
    if (context.disableSearch) throw notFound('full-text search is not available');
    const parsed = parseQuery(query.q);
    if (parsed.include.length === 0) {
      throw badRequest('query/q must contain something to search for');
    }
    const hits = await context.store.search.search(parsed, listFilters(query), paging(query));
    return { webpages: hits.map((hit) => toSearchResult(hit, parsed.include)) };
  });
}
