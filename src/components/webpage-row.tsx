import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import type { components } from '../api/schema.gen.ts';
import { formatBytes, formatDate, toIsoDate } from '../lib/display.ts';
import { hostOf } from '../lib/urls.ts';

export type WebpageRowItem = components['schemas']['WebpagesListItem'];

export interface WebpageRowProps {
  item: WebpageRowItem;
  /** Where the title links to (the webpage's detail). */
  href: string;
  /** Makes each label a link (e.g. to the list filtered by it). */
  labelHref?: (label: string) => string;
  /** Makes the host a link (e.g. to the list filtered by it). */
  hostHref?: (host: string) => string;
}

/** The title to show: the page's title, else its link, else "Untitled". Always plain text. */
export function displayTitle(item: { title: string; link?: string | null }): string {
  return item.title.trim() || item.link?.trim() || 'Untitled';
}

/** One compact row of a webpage list (an `<li>`; put it in a `WebpageList`). */
export function WebpageRow({ item, href, labelHref, hostHref }: WebpageRowProps) {
  const host = hostOf(item.link);
  const highlights = item.annotateCount;
  return (
    <li className={item.read ? 'webpage-row' : 'webpage-row webpage-row--unread'}>
      <span className="webpage-row__state">
        {item.read ? null : (
          <span className="unread-dot" title="Unread">
            <span className="visually-hidden">Unread</span>
          </span>
        )}
        {item.liked ? (
          <span className="liked-mark" title="Liked">
            <span aria-hidden="true">♥</span>
            <span className="visually-hidden">Liked</span>
          </span>
        ) : null}
      </span>
      <Link className="webpage-row__title" to={href}>
        {displayTitle(item)}
      </Link>
      <span className="webpage-row__labels">
        {item.labels.map((label) =>
          labelHref ? (
            <Link
              key={label}
              className="chip"
              to={labelHref(label)}
              title={`Show pages labelled ${label}`}
            >
              {label}
            </Link>
          ) : (
            <span key={label} className="chip">
              {label}
            </span>
          ),
        )}
      </span>
      <span className="webpage-row__host">
        {host && hostHref ? (
          <Link to={hostHref(host)} title={`Show pages from ${host}`}>
            {host}
          </Link>
        ) : (
          host
        )}
      </span>
      <span className="webpage-row__highlights" title={`${highlights} highlights`}>
        {highlights > 0 ? (
          <>
            <span aria-hidden="true">✎ </span>
            {highlights}
            <span className="visually-hidden"> highlights</span>
          </>
        ) : null}
      </span>
      <span className="webpage-row__ext">{item.ext}</span>
      <span className="webpage-row__size">{formatBytes(item.size)}</span>
      <time className="webpage-row__date" dateTime={toIsoDate(item.firstAddTime)}>
        {formatDate(item.firstAddTime)}
      </time>
    </li>
  );
}

export interface WebpageListProps {
  /** Names the list for assistive technology, e.g. "Webpages". */
  label: string;
  children: ReactNode;
  busy?: boolean;
}

export function WebpageList({ label, children, busy = false }: WebpageListProps) {
  return (
    <ul className="webpage-list" aria-label={label} aria-busy={busy}>
      {children}
    </ul>
  );
}
