import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';

import { displayTitle } from '../../../lib/display.ts';
import { countWebpages } from '../../../lib/list-count.ts';
import { hostOf } from '../../../lib/urls.ts';
import { viewPreviewOptions } from '../api/preview-view.ts';
import type { ViewPreviewInput } from '../api/types.ts';

/** How long the input must stay the same before it is previewed (typing a count, a host…). */
export const PREVIEW_DEBOUNCE_MS = 400;

/** `value` once it has not changed for `delayMs` (compared by its JSON). */
function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), delayMs);
    return () => clearTimeout(timer);
  }, [key, delayMs]);
  return settled;
}

export interface ViewPreviewProps {
  /** What selects the webpages, as the editor has it now. */
  input: ViewPreviewInput;
}

/** While a view is edited: how many webpages it would show and the first of them. */
export function ViewPreviewPanel({ input }: ViewPreviewProps) {
  const titleId = useId();
  const settled = useDebounced(input, PREVIEW_DEBOUNCE_MS);
  const waiting = JSON.stringify(settled) !== JSON.stringify(input);
  const { data, error, isFetching, isPlaceholderData } = useQuery({
    ...viewPreviewOptions(settled),
    placeholderData: keepPreviousData,
  });
  const stale = waiting || isPlaceholderData;

  const shown = data?.via === 'unavailable' ? undefined : data;
  let status: string;
  if (error && !isFetching) status = `The preview failed: ${error.message}`;
  else if (!data) status = 'Counting the matching webpages…';
  else if (!shown) status = 'Preview not available on this server';
  else if (shown.atLeast) status = `At least ${countWebpages(shown.count)} match`;
  else status = `${countWebpages(shown.count)} ${shown.count === 1 ? 'matches' : 'match'}`;

  return (
    <section className="view-preview" aria-labelledby={titleId} aria-busy={stale || isFetching}>
      <h2 id={titleId} className="section-title">
        Preview
      </h2>
      <p className={error && !isFetching ? 'form__error' : 'view-preview__count'} role="status">
        {status}
        {stale && data ? ' (updating…)' : ''}
      </p>
      {shown?.webpages.length ? (
        <ol className="view-preview__list" aria-label="First matching webpages">
          {shown.webpages.map((webpage) => (
            <li key={webpage.id} className="view-preview__item">
              <span className="view-preview__title" dir="auto">
                {displayTitle(webpage)}
              </span>
              <span className="view-preview__host">{hostOf(webpage.link)}</span>
            </li>
          ))}
        </ol>
      ) : null}
      {shown && !shown.atLeast && shown.count > shown.webpages.length ? (
        <p className="form__hint">and {countWebpages(shown.count - shown.webpages.length)} more.</p>
      ) : null}
      {data?.via === 'unavailable' ? (
        <p className="form__hint">
          This server has no preview of its own, and these filters cannot be read from its list. The
          view shows its webpages once it is saved.
        </p>
      ) : null}
    </section>
  );
}
