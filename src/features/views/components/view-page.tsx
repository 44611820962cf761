import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  memo,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ListSkeleton, PageLoading } from '../../../components/skeleton.tsx';
import { toastStore } from '../../../components/toast-store.ts';
import { useCommandQueue, type QueuedCommand } from '../../../components/use-command-queue.ts';
import { useShortcuts } from '../../../components/use-shortcuts.ts';
import { WebpageRow, type WebpageRowItem } from '../../../components/webpage-row.tsx';
import { countWebpages } from '../../../lib/list-count.ts';
import { paths } from '../../../lib/paths.ts';
import { toggleRange } from '../../../lib/selection.ts';
import { useDeleteView } from '../api/delete-view.ts';
import { viewOptions } from '../api/get-view.ts';
import { viewWebpagesOptions } from '../api/list-view-webpages.ts';
import type { ViewWebpage } from '../api/types.ts';
import { describeOrder } from '../view-summary.ts';
import { FilterChips } from './filter-chips.tsx';
import { VirtualWebpageList } from './virtual-webpage-list.tsx';

import '../views.css';

export type ViewListAction = 'like' | 'read' | 'delete';

/** An action asked for by the keyboard (see `useCommandQueue`). */
export type ViewListCommand = QueuedCommand<ViewListAction>;

export interface ViewBulkActionsProps {
  items: readonly ViewWebpage[];
  selected: readonly ViewWebpage[];
  /** The keyboard's presses not yet taken, oldest first. */
  commands: readonly ViewListCommand[];
  /** The commands up to `seq` are taken. */
  onCommandsDone: (seq: number) => void;
  onSelectionChange: (ids: string[]) => void;
}

export interface ViewPageProps {
  viewId: string;
  /** The bulk actions on the selection (like, read, labels, delete), rendered in the list bar. */
  renderBulkActions?: (props: ViewBulkActionsProps) => ReactNode;
  /** Webpages to leave out although the server still lists them (a delete's undo window). */
  isHidden?: (id: string) => boolean;
  /** More actions on the view, next to Edit view (the route composes them: export). */
  actions?: ReactNode;
}

interface Picks {
  ids: ReadonlySet<string>;
  anchor: number | null;
  active: number;
}

interface ViewRowProps {
  item: WebpageRowItem;
  index: number;
  viewId: string;
  /** Pixels from the start of the list. */
  top: number;
  active: boolean;
  selected: boolean;
  /** Stable across renders (the memo compares props). */
  onToggle: (index: number, range: boolean) => void;
  onActivate: (index: number) => void;
}

/**
 * One row of the view's list. Memoised: while the list scrolls, only the rows coming into view
 * render; a row renders again when it becomes active or (un)selected.
 */
const ViewRow = memo(function ViewRow({
  item,
  index,
  viewId,
  top,
  active,
  selected,
  onToggle,
  onActivate,
}: ViewRowProps) {
  return (
    <WebpageRow
      item={item}
      href={paths.webpage(item.id, { view: viewId })}
      style={{ top }}
      active={active}
      onFocus={() => onActivate(index)}
      selection={{ selected, onChange: (range) => onToggle(index, range) }}
    />
  );
});

const subscribeNever = () => () => {};
const noSnapshot = () => null;

/**
 * A view: its description and filters, then its webpages in the view's order, with selection,
 * bulk actions and the keyboard (`j` / `k`, `Enter`, `x`, `l`, `r`, `Delete`). Every webpage
 * opened from here keeps the view as its context.
 */
export function ViewPage({ viewId, renderBulkActions, isHidden, actions }: ViewPageProps) {
  const view = useQuery(viewOptions(viewId));
  const webpages = useInfiniteQuery(viewWebpagesOptions(viewId));
  const navigate = useNavigate();
  const remove = useDeleteView();
  const [picks, setPicks] = useState<Picks>({ ids: new Set(), anchor: null, active: -1 });
  const { commands, push, onCommandsDone } = useCommandQueue<ViewListAction>();
  const [actionsLoaded, setActionsLoaded] = useState(false);
  // A delete (or its undo) always shows a message: draw again then, to hide or show its pages.
  useSyncExternalStore(
    isHidden ? toastStore.subscribe : subscribeNever,
    isHidden ? toastStore.getSnapshot : noSnapshot,
  );

  const all = webpages.data?.items ?? [];
  const hasMore = webpages.data?.hasMore ?? false;
  const loadMore = () => {
    if (webpages.hasNextPage && !webpages.isFetchingNextPage && !webpages.isError) {
      void webpages.fetchNextPage();
    }
  };
  const items = isHidden ? all.filter((item) => !isHidden(item.id)) : all;
  const selected = items.filter((item) => picks.ids.has(item.id));
  if (!actionsLoaded && (selected.length > 0 || commands.length > 0)) setActionsLoaded(true);

  const open = (index: number) => {
    const item = items[index];
    if (item) void navigate(paths.webpage(item.id, { view: viewId }));
  };
  const toggle = (index: number, range: boolean) =>
    setPicks(({ ids, anchor }) =>
      items[index]
        ? { ids: toggleRange(ids, items, index, anchor, range), anchor: index, active: index }
        : { ids, anchor, active: index },
    );
  const [focusRequest, setFocusRequest] = useState<{ index: number; seq: number } | null>(null);
  const moveTo = (index: number) =>
    setPicks((current) => (current.active === index ? current : { ...current, active: index }));
  // The rows' handlers keep their identity (the rows are memoised) and call the latest `toggle`.
  const latestToggle = useRef(toggle);
  useLayoutEffect(() => {
    latestToggle.current = toggle;
  });
  const [rowHandlers] = useState(() => ({
    toggle: (index: number, range: boolean) => latestToggle.current(index, range),
    activate: moveTo,
  }));
  // A move by the keyboard also scrolls to the row and focuses it.
  const keyTo = (index: number) => {
    moveTo(index);
    setFocusRequest((previous) => ({ index, seq: (previous?.seq ?? 0) + 1 }));
  };
  const run = (action: ViewListAction) => {
    const targets = selected.length ? selected : items.slice(picks.active, picks.active + 1);
    if (!targets.length) return;
    push(
      action,
      targets.map((item) => item.id),
    );
  };
  const count = items.length;
  const hasRow = picks.active >= 0 && picks.active < count;
  useShortcuts({
    j: () => {
      if (count) keyTo(picks.active < 0 ? 0 : Math.min(picks.active + 1, count - 1));
    },
    k: () => {
      if (count) keyTo(picks.active < 0 ? 0 : Math.max(picks.active - 1, 0));
    },
    Enter: () => {
      if (hasRow) open(picks.active);
    },
    x: () => {
      if (hasRow) toggle(picks.active, false);
    },
    l: () => run('like'),
    r: () => run('read'),
    Delete: () => run('delete'),
  });

  if (view.isPending) return <PageLoading />;
  if (!view.data) return <ErrorState error={view.error} onRetry={() => void view.refetch()} />;
  const title = view.data.title || 'Untitled view';

  let body: ReactNode;
  if (webpages.isPending) body = <ListSkeleton label="Loading webpages…" />;
  else if (!webpages.data) {
    body = <ErrorState error={webpages.error} onRetry={() => void webpages.refetch()} />;
  } else if (!items.length) {
    body = (
      <EmptyState title="No webpages in this view.">
        No webpage matches its filters yet. <Link to={paths.viewEdit(viewId)}>Edit the view</Link>{' '}
        to change them.
      </EmptyState>
    );
  } else {
    const allSelected = selected.length === items.length;
    body = (
      <>
        {webpages.isError ? (
          <ErrorState error={webpages.error} onRetry={() => void webpages.refetch()} />
        ) : null}
        <div className="list-bar">
          <input
            type="checkbox"
            className="list-bar__check"
            aria-label="Select all in this view"
            checked={allSelected}
            ref={(input) => {
              if (input) input.indeterminate = selected.length > 0 && !allSelected;
            }}
            onChange={() =>
              setPicks((current) => ({
                ...current,
                ids: new Set(allSelected ? [] : items.map((item) => item.id)),
                anchor: null,
              }))
            }
          />
          {selected.length ? null : <span className="muted">Select webpages for bulk actions</span>}
          {actionsLoaded && renderBulkActions
            ? renderBulkActions({
                items,
                selected,
                commands,
                onCommandsDone,
                onSelectionChange: (ids) =>
                  setPicks((current) => ({ ...current, ids: new Set(ids) })),
              })
            : null}
        </div>
        <VirtualWebpageList
          items={items}
          label={`Webpages of ${title}`}
          busy={webpages.isFetching}
          selectable
          focusRequest={focusRequest}
          onNearEnd={loadMore}
          renderRow={(item, index, top) => (
            <ViewRow
              key={item.id}
              item={item}
              index={index}
              viewId={viewId}
              top={top}
              active={index === picks.active}
              selected={picks.ids.has(item.id)}
              onToggle={rowHandlers.toggle}
              onActivate={rowHandlers.activate}
            />
          )}
        />
      </>
    );
  }

  return (
    <section className="page" aria-labelledby="view-title">
      <header className="page__header">
        <div className="page__header--stacked view-page__heading">
          <h1 id="view-title" className="page__title" dir="auto">
            {title}
          </h1>
          {view.data.description ? (
            <p className="view-page__description" dir="auto">
              {view.data.description}
            </p>
          ) : null}
          <div className="view-item__summary">
            {view.data.filters.length ? (
              <>
                {view.data.filters.length > 1 ? (
                  <span>{view.data.match === 'or' ? 'Any of:' : 'All of:'}</span>
                ) : null}
                <FilterChips label="Filters of the view" filters={view.data.filters} />
              </>
            ) : (
              <span>All webpages</span>
            )}
            <span>· {describeOrder(view.data)}</span>
            {webpages.data ? (
              <span role="status">· {countWebpages(items.length, hasMore)}</span>
            ) : null}
          </div>
        </div>
        <div className="view-page__actions">
          <Link className="button" to={paths.viewEdit(viewId)}>
            Edit view
          </Link>
          {actions}
          <ConfirmButton
            label="Delete view"
            question={`Delete the view “${title}”? Its webpages stay in the library.`}
            confirmLabel="Delete"
            pending={remove.isPending}
            onConfirm={() =>
              remove.mutate(viewId, { onSuccess: () => void navigate(paths.views()) })
            }
          />
        </div>
      </header>
      {remove.error ? (
        <p className="form__error" role="alert">
          Could not delete the view: {remove.error.message}
        </p>
      ) : null}
      {body}
    </section>
  );
}
