import type { RefObject } from 'react';
import { useNavigate } from 'react-router-dom';

import { useShortcuts } from '../../../components/use-shortcuts.ts';
import { paths } from '../../../lib/paths.ts';
import type { WebpageListItem } from '../api/list-webpages.ts';
import type { ListFilters } from '../filters.ts';
import { webpageLocationState } from '../list-context.ts';
import type { ListAction } from './bulk-toolbar.tsx';

export interface ListShortcutsProps {
  /** The rows on the page. */
  items: readonly WebpageListItem[];
  selected: readonly WebpageListItem[];
  /** The keyboard's row, -1 for none. */
  active: number;
  /** The list (the detail opened from it keeps it for Previous / Next). */
  filters: ListFilters;
  /** The list element; its rows' title links take the focus. */
  list: RefObject<HTMLUListElement | null>;
  onActive: (index: number) => void;
  onToggle: (index: number) => void;
  onAction: (action: ListAction, ids: string[]) => void;
  /** The element holding the filters (`/` focuses its first control). */
  filtersId: string;
}

/**
 * The list's keys: `j` / `k` next and previous row (focus and scroll follow), `Enter` open, `x`
 * select, `e` open to edit, `l` like, `r` read, `Delete` delete (the selection, else the row),
 * `/` the filters. Loaded after the first paint.
 */
export function ListShortcuts({
  items,
  selected,
  active,
  filters,
  list,
  onActive,
  onToggle,
  onAction,
  filtersId,
}: ListShortcutsProps) {
  const navigate = useNavigate();
  const row = items[active];

  const moveTo = (index: number) => {
    if (!items.length) return;
    const target = Math.max(0, Math.min(index, items.length - 1));
    onActive(target);
    const link = list.current?.querySelectorAll<HTMLElement>('.webpage-row__title')[target];
    link?.focus({ preventScroll: true });
    link?.scrollIntoView?.({ block: 'nearest' });
  };
  const open = (edit: boolean) => {
    if (row) {
      void navigate(paths.webpage(row.id), { state: webpageLocationState(filters, edit) });
    }
  };
  const act = (action: ListAction) => {
    const targets = selected.length ? selected : row ? [row] : [];
    if (targets.length)
      onAction(
        action,
        targets.map((item) => item.id),
      );
  };

  useShortcuts({
    j: () => moveTo(active < 0 ? 0 : active + 1),
    k: () => moveTo(active < 0 ? 0 : active - 1),
    Enter: () => open(false),
    e: () => open(true),
    x: () => {
      if (row) onToggle(active);
    },
    l: () => act('like'),
    r: () => act('read'),
    Delete: () => act('delete'),
    '/': () => {
      document
        .getElementById(filtersId)
        ?.querySelector<HTMLElement>('select, input, button')
        ?.focus();
    },
  });
  return null;
}
