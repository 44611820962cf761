import { notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import type { RouteContext } from './context.ts';

/** Folio's extension: the hosts and labels in use, for filter menus and label suggestions. */
export function registerFacetRoutes(registry: OperationRegistry, context: RouteContext): void {
  registry.register('getFacets', () => {
    if (context.asHamsterBase) throw notFound('not found');
    return context.store.facets.all();
  });
}
