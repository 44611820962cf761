import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

import { useMoveTarget, type DetailNavigation } from '../../components/detail-navigation.ts';
import { paths, type WebpageContext } from '../../lib/paths.ts';
import { viewOptions } from './api/get-view.ts';
import { viewWebpagesOptions } from './api/list-view-webpages.ts';

/**
 * Previous and next webpage within a view, for a webpage's detail opened from the view
 * (`paths.webpage(id, { view })`). Inert (nothing fetched) without a view id. The view has no
 * paging, so its cached pages give both neighbours. `hrefOf` is where a move goes (the detail, or
 * the full window).
 */
export function useViewNeighbours(
  webpageId: string,
  viewId: string | null,
  hrefOf: (id: string, context?: WebpageContext) => string = paths.webpage,
): DetailNavigation {
  const navigate = useNavigate();
  const enabled = viewId !== null;
  const webpages = useQuery({ ...viewWebpagesOptions(viewId ?? ''), enabled });
  const view = useQuery({ ...viewOptions(viewId ?? ''), enabled });
  const items = webpages.data ?? [];
  const index = items.findIndex((item) => item.id === webpageId);

  const headingRef = useMoveTarget(webpageId);

  const go = async (step: 1 | -1) => {
    const from = items.findIndex((item) => item.id === headingRef.current);
    const target = from >= 0 ? items[from + step] : undefined;
    if (target && viewId) {
      headingRef.current = target.id;
      await navigate(hrefOf(target.id, { view: viewId }));
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
