import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';

import { paths } from '../../lib/paths.ts';
import { viewOptions } from './api/get-view.ts';
import { viewWebpagesOptions } from './api/list-view-webpages.ts';

export interface ViewNeighbours {
  canGoPrevious: boolean;
  canGoNext: boolean;
  /** The view's pages are loading. */
  moving: boolean;
  /** Why the view's pages could not be loaded. */
  error: Error | null;
  go: (step: 1 | -1) => Promise<void>;
  /** The way back to the view. */
  back: { href: string; label: string };
}

/**
 * Previous and next webpage within a view, for a webpage's detail opened from the view
 * (`paths.webpage(id, { view })`). Inert (nothing fetched) without a view id. The view has no
 * paging, so its cached pages give both neighbours.
 */
export function useViewNeighbours(webpageId: string, viewId: string | null): ViewNeighbours {
  const navigate = useNavigate();
  const enabled = viewId !== null;
  const webpages = useQuery({ ...viewWebpagesOptions(viewId ?? ''), enabled });
  const view = useQuery({ ...viewOptions(viewId ?? ''), enabled });
  const items = webpages.data ?? [];
  const index = items.findIndex((item) => item.id === webpageId);

  // Where a move is heading before the router gets there: a second key press while the first
  // one's page loads moves on from there, not again from the page still shown.
  const heading = useRef(webpageId);
  useEffect(() => {
    heading.current = webpageId;
  }, [webpageId]);

  const go = async (step: 1 | -1) => {
    const from = items.findIndex((item) => item.id === heading.current);
    const target = from >= 0 ? items[from + step] : undefined;
    if (target && viewId) {
      heading.current = target.id;
      await navigate(paths.webpage(target.id, { view: viewId }));
    }
  };

  return {
    canGoPrevious: index > 0,
    canGoNext: index >= 0 && index < items.length - 1,
    moving: enabled && webpages.isPending,
    error: webpages.error,
    go,
    back: {
      href: viewId ? paths.view(viewId) : paths.views(),
      label: `← ${view.data?.title || 'View'}`,
    },
  };
}
