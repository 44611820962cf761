import type { ChangeEvent, CSSProperties, ReactNode, Ref } from 'react';
import { Link } from 'react-router-dom';

import type { components } from '../../shared/contract/schema.gen.ts';
import { captureTime, displayTitle, formatBytes } from '../lib/display.ts';
import { hostOf } from '../lib/urls.ts';
import { RelativeTime } from './relative-time.tsx';

export type WebpageRowItem = components['schemas']['WebpagesListItem'];

export interface WebpageRowProps {
  item: WebpageRowItem;
  /** Where the title links to (the webpage's detail). */
  href: string;
  /** Makes each label a link (e.g. to the list filtered by it). */
  labelHref?: (label: string) => string;
  /** Makes the host a link (e.g. to the list filtered by it). */
  hostHref?: (host: string) => string;
  /** Router location state of the title link (e.g. the list the detail is opened from). */
  linkState?: unknown;
  /** Shows a checkbox ("Select <title>"); `shiftKey` says whether Shift was held (ranges). */
  selection?: { selected: boolean; onChange: (shiftKey: boolean) => void };
  /** The row the keyboard acts on. */
  active?: boolean;
  /** Focus entered the row. */
  onFocus?: () => void;
  /** The row's own style (e.g. its place in a virtual list). */
  style?: CSSProperties;
}

/** The title link (the webpage's detail) of the webpage row that `element` is in, if any. */
export function rowTitleLink(element: Element): HTMLAnchorElement | null {
  return element.closest('.webpage-row')?.querySelector('a.webpage-row__title') ?? null;
}

/** One compact row of a webpage list (an `<li>`; put it in a `WebpageList`). */
export function WebpageRow({
  item,
  href,
  labelHref,
  hostHref,
  linkState,
  selection,
  active,
  onFocus,
  style,
}: WebpageRowProps) {
  const host = hostOf(item.link);
  const highlights = item.annotateCount;
  const title = displayTitle(item);
  // When the page was captured (the saver's date), else when it was added to the archive.
  const captured = captureTime(item.createTime);
  let className = 'webpage-row';
  if (!item.read) className += ' webpage-row--unread';
  if (selection?.selected) className += ' webpage-row--selected';
  if (active) className += ' webpage-row--active';
  return (
    <li className={className} style={style} onFocus={onFocus}>
      {selection ? (
        <input
          type="checkbox"
          className="webpage-row__check"
          aria-label={`Select ${title}`}
          checked={selection.selected}
          onChange={(event: ChangeEvent<HTMLInputElement>) =>
            selection.onChange((event.nativeEvent as MouseEvent).shiftKey === true)
          }
        />
      ) : null}
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
      <Link className="webpage-row__title" to={href} state={linkState} dir="auto">
        {title}
      </Link>
      {/* One grid cell each on wide screens; one line under the title on narrow ones. */}
      <span className="webpage-row__meta">
        <span className="webpage-row__labels">
          {item.labels.map((label) =>
            labelHref ? (
              <Link
                key={label}
                className="chip"
                dir="auto"
                to={labelHref(label)}
                title={`Show pages labelled ${label}`}
              >
                {label}
              </Link>
            ) : (
              <span key={label} className="chip" dir="auto">
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
        <span className="webpage-row__ext" title="Format">
          {item.ext}
        </span>
        <span className="webpage-row__size">{formatBytes(item.size)}</span>
        <RelativeTime
          className="webpage-row__date"
          value={captured ?? item.firstAddTime}
          titlePrefix={captured === null ? 'Added' : 'Captured'}
        />
      </span>
    </li>
  );
}

export interface WebpageListProps {
  /** Names the list for assistive technology, e.g. "Webpages". */
  label: string;
  children: ReactNode;
  busy?: boolean;
  /** The rows have checkboxes. */
  selectable?: boolean;
  /** Another class beside `webpage-list`. */
  className?: string;
  style?: CSSProperties;
  ref?: Ref<HTMLUListElement>;
}

export function WebpageList({
  label,
  children,
  busy = false,
  selectable,
  className,
  style,
  ref,
}: WebpageListProps) {
  let classes = selectable ? 'webpage-list webpage-list--selectable' : 'webpage-list';
  if (className) classes += ` ${className}`;
  return (
    <ul ref={ref} className={classes} style={style} aria-label={label} aria-busy={busy}>
      {children}
    </ul>
  );
}
