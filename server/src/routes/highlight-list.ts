import { notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import { HighlightList } from '../store/highlight-list.ts';
import type { RouteContext } from './context.ts';
import { toHighlight } from './serialize.ts';

/** The contract's default page size of `listHighlights`. */
const DEFAULT_PER_PAGE = 50;

/**
 * Folio's extension: every highlight of the live webpages, newest first, one page at a time, for
 * the highlights page. As HamsterBase, a 404 (the client then gathers them from the pages).
 */
export function registerHighlightListRoutes(
  registry: OperationRegistry,
  context: RouteContext,
): void {
  const list = new HighlightList(context.store.db);
  registry.register('listHighlights', ({ query }) => {
    if (context.asHamsterBase) throw notFound('not found');
    const { items, hasNext } = list.list(
      {
        ...(query.q === undefined ? {} : { q: query.q }),
        ...(query.host === undefined ? {} : { hosts: query.host }),
        ...(query.labels === undefined ? {} : { labels: query.labels }),
      },
      { page: query.page ?? 1, perPage: query.per_page ?? DEFAULT_PER_PAGE },
    );
    return {
      highlights: items.map((item) => ({
        highlight: toHighlight(item.highlight),
        webpage: item.webpage,
      })),
      hasNext,
    };
  });
}
