import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';

import {
  captureTime,
  formatDateTime,
  formatRelativeTime,
  toIsoDate,
} from '../../../lib/display.ts';
import { hostOf } from '../../../lib/urls.ts';
import { paths } from '../../../lib/paths.ts';
import {
  CAPTURE_LIST_PAGES,
  CAPTURE_LIST_PER_PAGE,
  webpageCapturesOptions,
} from '../api/list-webpage-captures.ts';
import type { WebpageListItem } from '../api/list-webpages.ts';
import { useWithoutHidden } from '../hidden-webpages.ts';

export interface OtherCapturesProps {
  /** The webpage shown; it is left out of the list. */
  webpageId: string;
  link: string;
}

/** When a capture was made: its capture time, else (HamsterBase's html) when it was added. */
function savedOn(item: WebpageListItem): { time: number; captured: boolean } {
  const captured = captureTime(item.createTime);
  return captured === null
    ? { time: item.firstAddTime, captured: false }
    : { time: captured, captured: true };
}

/**
 * "Also saved on …": the other captures of the webpage's link, newest first, each a link to its
 * detail, so the archive reads as a history of the page. Nothing while they load, when there are
 * none or when they cannot be listed (the rest of the detail does not depend on them).
 */
export function OtherCaptures({ webpageId, link }: OtherCapturesProps) {
  // Captures in their delete's undo window are left out (client state, applied by `select`).
  const { data } = useQuery({ ...webpageCapturesOptions(link), select: useWithoutHidden() });
  const others = (data?.items ?? [])
    .filter((item) => item.id !== webpageId)
    .map((item) => ({ item, ...savedOn(item) }))
    .sort((a, b) => b.time - a.time || a.item.id.localeCompare(b.item.id));
  if (!data || others.length === 0) return null;
  return (
    <section aria-labelledby="other-captures-title">
      <h2 id="other-captures-title" className="section-title">
        Also saved on
      </h2>
      <ul>
        {others.map(({ item, time, captured }) => (
          <li key={item.id}>
            <Link to={paths.webpage(item.id)}>
              <time dateTime={toIsoDate(time)} title={formatRelativeTime(time)}>
                {formatDateTime(time)}
              </time>
            </Link>{' '}
            <span className="muted">
              {item.ext}
              {captured ? '' : ', added (capture date unknown)'}
            </span>
          </li>
        ))}
      </ul>
      {data.hasNext ? (
        <p className="muted">
          Older captures may exist: only the {CAPTURE_LIST_PAGES * CAPTURE_LIST_PER_PAGE} latest
          pages saved from {hostOf(link) ?? 'this site'} were looked at.
        </p>
      ) : null}
    </section>
  );
}
