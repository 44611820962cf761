import type { HighlightsParams } from '../highlights-params.ts';

/** Query keys of the highlights page; invalidate by prefix (`all`). */
export const highlightKeys = {
  all: ['highlights'] as const,
  list: (search: HighlightsParams) => [...highlightKeys.all, 'list', search] as const,
  /** Every highlight gathered from the annotated pages (a server without `listHighlights`). */
  gathered: () => [...highlightKeys.all, 'gathered'] as const,
};
