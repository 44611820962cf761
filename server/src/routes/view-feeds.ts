import type { components } from '../../../shared/contract/schema.gen.ts';
import { notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import type { RouteContext } from './context.ts';
import { feedPath } from './feeds.ts';

type ViewFeed = components['schemas']['ViewFeed'];

/**
 * Folio's feed extension: read, turn on, rotate and turn off a view's RSS feed (its secret). The
 * feed itself is served outside the API (`feeds.ts`).
 */
export function registerViewFeedRoutes(registry: OperationRegistry, context: RouteContext): void {
  const { views, feeds } = context.store;

  const liveView = (id: string): string => {
    // As HamsterBase: no such operations (its feeds are managed there).
    if (context.asHamsterBase) throw notFound('not found');
    const view = views.find(id);
    if (view === undefined) throw notFound(`view ${id} not found`);
    return view.id;
  };
  const state = (viewId: string, secret: string | undefined): ViewFeed =>
    secret === undefined ? { enabled: false } : { enabled: true, path: feedPath(viewId, secret) };
  const changed = (viewId: string, secret: string | undefined): ViewFeed => {
    // The view was deleted between the check and the change.
    if (secret === undefined) throw notFound(`view ${viewId} not found`);
    return state(viewId, secret);
  };

  registry.register('getViewFeed', ({ params }) => {
    const id = liveView(params.view_id);
    return state(id, feeds.secretOf(id));
  });
  registry.register('enableViewFeed', ({ params }) => {
    const id = liveView(params.view_id);
    return changed(id, feeds.enable(id, context.now()));
  });
  registry.register('rotateViewFeed', ({ params }) => {
    const id = liveView(params.view_id);
    return changed(id, feeds.rotate(id, context.now()));
  });
  registry.register('disableViewFeed', ({ params }) => {
    const id = liveView(params.view_id);
    feeds.disable(id);
    return state(id, undefined);
  });
}
