// What a webpage's detail needs to move to its neighbours, whichever list it was opened from (the
// library's, in the webpages feature; a view's, in the views feature): routes pass one in.
import { useEffect, useRef, type RefObject } from 'react';

/** Previous / Next and the way back of a webpage's detail. */
export interface DetailNavigation {
  canGoPrevious: boolean;
  canGoNext: boolean;
  /** Loading what the move needs (e.g. the neighbouring page of the list). */
  moving: boolean;
  /** Why the last move (or loading its list) failed. */
  error: Error | null;
  go: (step: 1 | -1) => Promise<void>;
  /** The way back (also where a delete returns to). */
  back: { href: string; label: string };
}

/**
 * The webpage a move is heading to, before the router gets there: set it when moving, read it
 * to move again, so that a second key press while the first one's page loads moves on from there
 * rather than again from the page still shown. It follows the shown page once that changes.
 */
export function useMoveTarget(shownId: string): RefObject<string> {
  const target = useRef(shownId);
  useEffect(() => {
    target.current = shownId;
  }, [shownId]);
  return target;
}
