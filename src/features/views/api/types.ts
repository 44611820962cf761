// The types the views feature's queries share (their inputs and answers), in a module of their own
// so that the key factory, the queries and the components import them without a circle.
import type { components } from '../../../../shared/contract/schema.gen.ts';

/** What selects a view's webpages: a create request without its title and description. */
export type ViewPreviewInput = Omit<
  components['schemas']['CreateViewRequest'],
  'title' | 'description'
>;

/** A webpage of the preview: what its row shows. */
export type PreviewWebpage = Pick<
  components['schemas']['WebpagesListItem'],
  'id' | 'title' | 'link'
>;

export type ViewPreview =
  | {
      /**
       * `server`: Folio's preview operation; `list`: the server has none (HamsterBase), and the
       * filters map onto the list's parameters.
       */
      via: 'server' | 'list';
      /** How many webpages the view would show (its limit applied). */
      count: number;
      /** At least `count` match: the list was read up to a bound. */
      atLeast: boolean;
      /** The first of them, in the view's order. */
      webpages: PreviewWebpage[];
    }
  /** The server has no preview and the filters have no list parameters: no preview. */
  | { via: 'unavailable' };

/** A webpage of a view, as `GET /views/{id}/webpages` answers it. */
export type ViewWebpage = components['schemas']['ViewWebpagesListItem'];

/** One answer: a page of the view, or the whole view (`hasNext` absent: HamsterBase, random order). */
export interface ViewWebpagesPage {
  webpages: ViewWebpage[];
  hasNext?: boolean | undefined;
}

/** The view's webpages loaded so far, in its order, and whether it has more. */
export interface ViewWebpagesLoaded {
  items: ViewWebpage[];
  hasMore: boolean;
}
