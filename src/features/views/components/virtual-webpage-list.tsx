import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type ReactNode } from 'react';

import { WebpageList } from '../../../components/webpage-row.tsx';

/** Rows drawn above and below the visible ones, so a fast scroll shows no gap. */
const OVERSCAN = 12;
const FALLBACK_ROW_HEIGHT = 36;

/** The rows' height: the `--row-height` design token (every webpage row has it). */
function rowHeight(): number {
  const value = getComputedStyle(document.documentElement).getPropertyValue('--row-height');
  const pixels = Number.parseFloat(value);
  return Number.isFinite(pixels) && pixels > 0 ? pixels : FALLBACK_ROW_HEIGHT;
}

export interface VirtualWebpageListProps<T> {
  items: readonly T[];
  /** Names the list for assistive technology. */
  label: string;
  busy?: boolean;
  selectable?: boolean;
  /** A row to bring into view and focus (the keyboard moved to it); a new `seq` asks again. */
  focusRequest?: { index: number; seq: number } | null;
  /** One `WebpageRow` (an `<li>`). */
  renderRow: (item: T, index: number) => ReactNode;
}

/**
 * A webpage list that draws only the rows in and near the window (the page scrolls as usual), so
 * a view of thousands of webpages scrolls smoothly.
 */
export function VirtualWebpageList<T>({
  items,
  label,
  busy,
  selectable,
  focusRequest = null,
  renderRow,
}: VirtualWebpageListProps<T>) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [height] = useState(rowHeight);
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
    estimateSize: () => height,
    overscan: OVERSCAN,
    scrollMargin,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0];

  // The keyboard's row: bring it into view, then focus its title once it is drawn.
  const handled = useRef(0);
  useEffect(() => {
    if (!focusRequest || focusRequest.seq === handled.current) return;
    handled.current = focusRequest.seq;
    const { index } = focusRequest;
    virtualizer.scrollToIndex(index, { align: 'auto' });
    const frame = requestAnimationFrame(() => {
      const start = virtualizer.getVirtualItems()[0]?.index ?? 0;
      const row = listRef.current?.children[index - start];
      row?.querySelector<HTMLElement>('.webpage-row__title')?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [focusRequest, virtualizer]);

  return (
    <div
      ref={wrapperRef}
      className="virtual-list"
      style={{ height: virtualizer.getTotalSize() + 2 }}
    >
      <div
        className="virtual-list__window"
        style={{ transform: `translateY(${(first?.start ?? 0) - scrollMargin}px)` }}
      >
        <WebpageList ref={listRef} label={label} busy={busy} selectable={selectable}>
          {rows.map((row) => renderRow(items[row.index]!, row.index))}
        </WebpageList>
      </div>
    </div>
  );
}
