import { notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import { loadWebpage, type RouteContext } from './context.ts';

export function registerHighlightRoutes(registry: OperationRegistry, context: RouteContext): void {
  const { store } = context;

  registry.register('createHighlight', ({ params, body }) => {
    loadWebpage(store, params.id);
    return store.highlights.create(params.id, body, context.now());
  });

  registry.register('patchHighlight', ({ params, body }) => {
    loadWebpage(store, params.id);
    if (!store.highlights.setNote(params.id, params.highlight_id, body.note, context.now())) {
      throw highlightNotFound(params.highlight_id);
    }
    return loadWebpage(store, params.id);
  });

  registry.register('deleteHighlight', ({ params }) => {
    loadWebpage(store, params.id);
    if (!store.highlights.remove(params.id, params.highlight_id, context.now())) {
      throw highlightNotFound(params.highlight_id);
    }
    return loadWebpage(store, params.id);
  });
}

function highlightNotFound(id: string) {
  return notFound(`highlight ${id} not found`);
}
