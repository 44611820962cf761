import {
  observeWindowOffset,
  useWindowVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

import { WebpageList } from '../../../components/webpage-row.tsx';

import './virtual-webpage-list.css';

/** Rows drawn above and below the visible ones, so a fast scroll shows no gap. */
const OVERSCAN = 12;
const FALLBACK_ROW_HEIGHT = 36;

/** The rows' height: the `--row-height` design token (every webpage row has it). */
function rowHeight(): number {
  const value = getComputedStyle(document.documentElement).getPropertyValue('--row-height');
  const pixels = Number.parseFloat(value);
  return Number.isFinite(pixels) && pixels > 0 ? pixels : FALLBACK_ROW_HEIGHT;
}

/**
 * The window's scroll offset for the virtualizer, reported in a task of its own after the scroll
 * events of a frame (one report for all of them). The rows then change in that task, outside the
 * frame that scrolls (its style, layout and paint stay short), and still synchronously (React's
 * other work, e.g. a lazy component's reveal, is not held back by a stream of scroll updates).
 * The overscan covers the distance of a frame.
 */
function observeWindowOffsetInTask(
  instance: Virtualizer<Window, Element>,
  report: (offset: number, isScrolling: boolean) => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scrolling = false;
  const stop = observeWindowOffset(instance, (_offset, isScrolling) => {
    scrolling = isScrolling;
    timer ??= setTimeout(() => {
      timer = undefined;
      report(window.scrollY, scrolling);
    }, 0);
  });
  return () => {
    clearTimeout(timer);
    stop?.();
  };
}

export interface VirtualWebpageListProps<T> {
  items: readonly T[];
  /** Names the list for assistive technology. */
  label: string;
  busy?: boolean;
  selectable?: boolean;
  /** A row to bring into view and focus (the keyboard moved to it); a new `seq` asks again. */
  focusRequest?: { index: number; seq: number } | null;
  /**
   * One `WebpageRow` (an `<li>`), placed `top` pixels below the start of the list (its
   * `style={{ top }}`). Called for every drawn row on each scroll step: return a memoised
   * component, so that only the rows coming into view render.
   */
  renderRow: (item: T, index: number, top: number) => ReactNode;
  /** Called when the drawn rows reach the last `NEAR_END_ROWS` of `items` (to load more). */
  onNearEnd?: () => void;
}

/** How close to the end of the items the drawn rows come before `onNearEnd` is called. */
export const NEAR_END_ROWS = 50;

/**
 * A webpage list that draws only the rows in and near the window (the page scrolls as usual), so
 * a view of thousands of webpages scrolls smoothly.
 *
 * Each row has a fixed height and its own place in the list: rows coming into view are laid out
 * alone, the others do not move. The rows change in a task after the scroll events (see
 * `observeWindowOffsetInTask`), not inside the frame that scrolls.
 */
export function VirtualWebpageList<T>({
  items,
  label,
  busy,
  selectable,
  focusRequest = null,
  renderRow,
  onNearEnd,
}: VirtualWebpageListProps<T>) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The token changes with the window's width (rows take two lines on narrow screens).
  const [height, setHeight] = useState(rowHeight);
  const estimateSize = useCallback(() => height, [height]);
  useEffect(() => {
    const update = () => setHeight(rowHeight());
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  // Where the list starts in the document; it moves when what is above it changes size.
  const [scrollMargin, setScrollMargin] = useState(0);
  useEffect(() => {
    const wrapper = wrapperRef.current;
    if (!wrapper) return;
    const measure = () =>
      setScrollMargin(Math.round(wrapper.getBoundingClientRect().top + window.scrollY));
    measure();
    if (typeof ResizeObserver === 'undefined' || !wrapper.parentElement) return;
    const observer = new ResizeObserver(measure);
    observer.observe(wrapper.parentElement);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize,
    overscan: OVERSCAN,
    scrollMargin,
    observeElementOffset: observeWindowOffsetInTask,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, height]);
  const rows = virtualizer.getVirtualItems();

  // The keyboard's row: bring it into view, then focus its title once it is drawn (now, or after
  // the render that the scroll brings).
  const handled = useRef(0);
  const pendingFocus = useRef<number | null>(null);
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? -1;
  const focusPending = () => {
    const index = pendingFocus.current;
    if (index === null || index < first || index > last) return;
    pendingFocus.current = null;
    const row = listRef.current?.children[index - first];
    row?.querySelector<HTMLElement>('.webpage-row__title')?.focus({ preventScroll: true });
  };
  useLayoutEffect(focusPending);
  const nearEnd = items.length > 0 && last >= items.length - NEAR_END_ROWS;
  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  });
  useEffect(() => {
    if (!focusRequest || focusRequest.seq === handled.current) return;
    handled.current = focusRequest.seq;
    pendingFocus.current = focusRequest.index;
    virtualizer.scrollToIndex(focusRequest.index, { align: 'auto' });
    focusPending();
  });

  return (
    <div ref={wrapperRef} className="virtual-list">
      <WebpageList
        ref={listRef}
        className="virtual-list__rows"
        // The list's border (1 px at the top and bottom) is outside the rows.
        style={{ height: virtualizer.getTotalSize() + 2 }}
        label={label}
        busy={busy}
        selectable={selectable}
      >
        {rows.map((row) => renderRow(items[row.index]!, row.index, row.start - scrollMargin))}
      </WebpageList>
    </div>
  );
}
