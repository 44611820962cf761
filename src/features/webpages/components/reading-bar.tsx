import { useMemo } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';

import type { DetailNavigation } from '../../../components/detail-navigation.ts';
import { useShortcuts } from '../../../components/use-shortcuts.ts';
import { displayTitle } from '../../../lib/display.ts';
import { paths, webpageViewContext } from '../../../lib/paths.ts';
import type { Webpage } from '../api/get-webpage.ts';
import { listFiltersFromState } from '../list-context.ts';
import { useListNeighbours } from '../use-list-neighbours.ts';
import {
  LikeReadButtons,
  NeighbourButtons,
  NeighbourError,
  neighbourKeys,
  useLikeRead,
} from './reading-controls.tsx';
import './reading-bar.css';

export interface ReadingBarProps {
  webpage: Webpage;
  /**
   * Previous / Next when the full window was opened within a view (moves stay in the full
   * window); by default, the list the detail was opened from.
   */
  navigation?: DetailNavigation;
}

/**
 * The full-window preview's bar: the way back to the details, the title, Like, Mark as read,
 * Previous / Next within the same list as the detail, and the detail's keys for them.
 */
export function ReadingBar({ webpage, navigation }: ReadingBarProps) {
  const location = useLocation();
  const viewId = webpageViewContext(useSearchParams()[0]);
  const listFilters = useMemo(() => listFiltersFromState(location.state), [location.state]);
  const listNeighbours = useListNeighbours(
    webpage.id,
    listFilters,
    navigation === undefined,
    paths.webpagePreview,
  );
  const neighbours = navigation ?? listNeighbours;
  const likeRead = useLikeRead(webpage);

  useShortcuts({ l: likeRead.like, r: likeRead.read, ...neighbourKeys(neighbours) });

  return (
    <header className="preview-page__bar reading-bar">
      <Link
        to={paths.webpage(webpage.id, viewId ? { view: viewId } : undefined)}
        state={location.state as unknown}
      >
        ← Details
      </Link>
      <h1 className="preview-page__title">{displayTitle(webpage)}</h1>
      <span className="reading-bar__actions">
        <LikeReadButtons webpage={webpage} {...likeRead} />
        <NeighbourButtons neighbours={neighbours} />
      </span>
      <NeighbourError neighbours={neighbours} />
    </header>
  );
}
