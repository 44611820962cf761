import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

import { useMoveTarget, type DetailNavigation } from '../../components/detail-navigation.ts';
import { paths, type WebpageContext } from '../../lib/paths.ts';
import { viewOptions } from './api/get-view.ts';
import { viewWebpagesOptions } from './api/list-view-webpages.ts';

/**
 * Previous and next webpage within a view, for a webpage's detail opened from the view
 * (`paths.webpage(id, { view })`). Inert (nothing fetched) without a view id. The view's loaded
 * webpages give both neighbours; past the last one loaded, Next loads the view's next page
 * (a server that pages views) and moves on to its first webpage. `hrefOf` is where a move goes
 * (the detail, or the full window).
 */
export function useViewNeighbours(
  webpageId: string,
  viewId: string | null,
  hrefOf: (id: string, context?: WebpageContext) => string = paths.webpage,
): DetailNavigation {
  const navigate = useNavigate();
  const enabled = viewId !== null;
  const webpages = useInfiniteQuery({ ...viewWebpagesOptions(viewId ?? ''), enabled });
  const view = useQuery({ ...viewOptions(viewId ?? ''), enabled });
  const items = webpages.data?.items ?? [];
  const hasMore = webpages.data?.hasMore ?? false;
  const index = items.findIndex((item) => item.id === webpageId);

  const headingRef = useMoveTarget(webpageId);

  const go = async (step: 1 | -1) => {
    let list = items;
    let from = list.findIndex((item) => item.id === headingRef.current);
    if (from >= 0 && step === 1 && from === list.length - 1 && webpages.hasNextPage) {
      const next = await webpages.fetchNextPage();
      list = next.data?.items ?? list;
      from = list.findIndex((item) => item.id === headingRef.current);
    }
    const target = from >= 0 ? list[from + step] : undefined;
    if (target && viewId) {
      headingRef.current = target.id;
      await navigate(hrefOf(target.id, { view: viewId }));
    }
  };

  return {
    canGoPrevious: index > 0,
    canGoNext: index >= 0 && (index < items.length - 1 || hasMore),
    moving: enabled && webpages.isPending,
    error: webpages.error,
    go,
    back: {
      href: viewId ? paths.view(viewId) : paths.views(),
      label: `← ${view.data?.title || 'View'}`,
    },
  };
}
