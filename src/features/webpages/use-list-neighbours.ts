import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { useMoveTarget, type DetailNavigation } from '../../components/detail-navigation.ts';
import { paths, type WebpageContext } from '../../lib/paths.ts';
import { listWebpagesOptions } from './api/list-webpages.ts';
import { useWithoutHidden, withoutHidden } from './hidden-webpages.ts';
import { toSearchParams, type ListFilters } from './filters.ts';
import { webpageLocationState } from './list-context.ts';

/**
 * Previous and next webpage within the list a detail was opened from. At the edge of the list's
 * page, the neighbouring page is fetched and the move lands on its first (or last) webpage, which
 * then becomes the detail's list. `hrefOf` is where a move goes (the detail, or the full window).
 */
export function useListNeighbours(
  id: string,
  filters: ListFilters,
  enabled = true,
  hrefOf: (id: string, context?: WebpageContext) => string = paths.webpage,
): DetailNavigation {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data } = useQuery({
    ...listWebpagesOptions(filters),
    enabled,
    select: useWithoutHidden(),
  });
  const [moving, setMoving] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const items = data?.items ?? [];
  const index = items.findIndex((item) => item.id === id);
  // Where the webpage was last seen in the list: a change can make it leave the list (marked
  // as read in the unread list), and reading on must still move to its old neighbours.
  const [seen, setSeen] = useState<{ id: string; index: number } | null>(null);
  if (index >= 0 && (seen?.id !== id || seen.index !== index)) setSeen({ id, index });
  const anchor = index >= 0 ? index : seen?.id === id ? seen.index : -1;
  const found = anchor >= 0;
  const previousIndex = anchor - 1;
  // Once the webpage has left the list, the one that followed it has moved into its place.
  const nextIndex = index >= 0 ? index + 1 : anchor;

  const headingRef = useMoveTarget(id);

  const go = async (step: 1 | -1) => {
    if (!found || moving) return;
    // A move already heading elsewhere (its page still loading) goes on from there, within this
    // list page.
    if (headingRef.current !== id) {
      const from = items.findIndex((item) => item.id === headingRef.current);
      const onward = from >= 0 ? items[from + step] : undefined;
      if (onward) {
        headingRef.current = onward.id;
        await navigate(hrefOf(onward.id), { state: webpageLocationState(filters) });
      }
      return;
    }
    let target = items[step === 1 ? nextIndex : previousIndex];
    let targetFilters = filters;
    if (!target) {
      if (step === 1 ? !data?.hasNext : filters.page <= 1) return;
      targetFilters = { ...filters, page: filters.page + step };
      setMoving(true);
      setError(null);
      try {
        const page = withoutHidden(
          await queryClient.fetchQuery(listWebpagesOptions(targetFilters)),
        );
        target = step === 1 ? page.items[0] : page.items.at(-1);
      } catch (cause) {
        setError(cause instanceof Error ? cause : new Error(String(cause)));
        return;
      } finally {
        setMoving(false);
      }
    }
    if (target) {
      headingRef.current = target.id;
      await navigate(hrefOf(target.id), { state: webpageLocationState(targetFilters) });
    }
  };

  return {
    canGoPrevious: found && (previousIndex >= 0 || filters.page > 1),
    canGoNext: found && (nextIndex < items.length || data?.hasNext === true),
    moving,
    error,
    go,
    back: { href: paths.home(toSearchParams(filters)), label: '← Library' },
  };
}
