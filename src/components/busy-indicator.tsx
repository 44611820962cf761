import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';

/** How long something has to take before the indicator shows (quicker work does not flicker). */
export const BUSY_DELAY_MS = 1000;

export interface BusyIndicatorProps {
  delayMs?: number;
}

/**
 * A thin bar at the top of the window while the app waits for something that has taken longer
 * than `delayMs`: a route change, a request for data, or a change sent to the server. An
 * indeterminate `progressbar` named "Working…", rendered only while shown.
 */
export function BusyIndicator({ delayMs = BUSY_DELAY_MS }: BusyIndicatorProps) {
  const navigating = useNavigation().state !== 'idle';
  const fetching = useIsFetching() > 0;
  const mutating = useIsMutating() > 0;
  const busy = navigating || fetching || mutating;
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [busy, delayMs]);

  return busy && shown ? (
    <div className="busy-bar" role="progressbar" aria-label="Working…" />
  ) : null;
}
