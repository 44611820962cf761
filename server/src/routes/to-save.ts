import { badRequest, notFound } from '../http/errors.ts';
import type { OperationRegistry } from '../http/operations.ts';
import { MAX_TO_SAVE, ToSaveStore } from '../store/to-save.ts';
import type { RouteContext } from './context.ts';

/** Folio's extension: links to save later (from a bookmarks file Folio cannot fetch). */
export function registerToSaveRoutes(registry: OperationRegistry, context: RouteContext): void {
  const store = new ToSaveStore(context.store.db);
  const available = () => {
    if (context.asHamsterBase) throw notFound('not found');
  };

  registry.register('listToSave', () => {
    available();
    return { links: store.list() };
  });

  registry.register('addToSave', ({ body }) => {
    available();
    const links = body.links.map((link, index) => {
      let url: URL;
      try {
        url = new URL(link.url);
      } catch {
        throw badRequest(`body/links/${index}/url is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw badRequest(`body/links/${index}/url must be an http or https link`);
      }
      const addTime = link.addTime ?? null;
      return {
        url: link.url,
        title: (link.title ?? '').trim(),
        labels: [...new Set(link.labels ?? [])],
        addTime: addTime !== null && Number.isFinite(addTime) ? Math.round(addTime) : null,
      };
    });
    const result = store.add(links, context.now());
    if (result === 'full') {
      throw badRequest(`the list to save holds at most ${MAX_TO_SAVE} links`);
    }
    return result;
  });

  registry.register('deleteToSave', ({ params }) => {
    available();
    const link = store.delete(Number(params.link_id));
    if (link === undefined) throw notFound(`link ${params.link_id} not found`);
    return link;
  });
}
