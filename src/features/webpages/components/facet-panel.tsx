import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ValueChecklist } from '../../../components/value-checklist.tsx';
import { facetsOptions, type FacetValue } from '../api/get-facets.ts';

export type FacetKind = 'host' | 'label';

export interface FacetPanelProps {
  id: string;
  kind: FacetKind;
  /** The values the list is filtered by now. */
  selected: readonly string[];
  onChange: (values: string[]) => void;
  /** `returnFocus`: give the focus back to the menu's button (Escape, Done). */
  onClose: (returnFocus: boolean) => void;
}

const TEXT = {
  host: {
    name: 'Filter by host',
    hint: 'Webpages from any of the checked hosts.',
    search: 'Search hosts',
    none: 'No webpage has a link yet.',
  },
  label: {
    name: 'Filter by label',
    hint: 'Webpages that have all of the checked labels.',
    search: 'Search labels',
    none: 'No labels yet.',
  },
} as const;

/**
 * The values of a multi-select filter (hosts or labels) with their counts, from the facets; the
 * checked ones are the list's filter. Each change applies at once.
 */
export function FacetPanel({ id, kind, selected, onChange, onClose }: FacetPanelProps) {
  const { data, error, isPending, refetch } = useQuery(facetsOptions());
  const [search, setSearch] = useState('');
  const panelRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const text = TEXT[kind];

  const close = useEffectEvent((returnFocus: boolean) => onClose(returnFocus));
  // Opens under its button, moved left as far as needed to stay in the window.
  useLayoutEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const overflow =
      panel.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) panel.style.left = `${-overflow}px`;
  }, []);

  const loaded = data !== undefined;
  useEffect(() => {
    if (loaded) searchRef.current?.focus();
  }, [loaded]);
  useLayoutEffect(() => {
    // A press outside the menu (its button included) closes it; Escape inside it too, from the
    // moment it shows.
    const onPointerDown = (event: PointerEvent) => {
      const menu = panelRef.current?.parentElement;
      if (menu && event.target instanceof Node && !menu.contains(event.target)) close(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const menu = panelRef.current?.parentElement;
      if (
        event.key !== 'Escape' ||
        !(event.target instanceof Node) ||
        !menu?.contains(event.target)
      ) {
        return;
      }
      event.preventDefault();
      close(true);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  const values = useMemo((): FacetValue[] => {
    const known = data ? (kind === 'host' ? data.hosts : data.labels) : [];
    const knownValues = new Set(known.map((facet) => facet.value));
    // Filters from the URL that the facets do not list (yet) stay visible, to be unchecked.
    const extra = selected
      .filter((value) => !knownValues.has(value))
      .map((value) => ({ value, count: 0 }));
    return [...extra, ...known];
  }, [data, kind, selected]);
  const needle = search.trim().toLowerCase();
  const shown = needle ? values.filter((f) => f.value.toLowerCase().includes(needle)) : values;
  const checked = new Set(selected);

  const toggle = (value: string) =>
    onChange(checked.has(value) ? selected.filter((v) => v !== value) : [...selected, value]);

  let body;
  if (isPending) {
    body = (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  } else if (!data) {
    body = <ErrorState error={error} onRetry={() => void refetch()} />;
  } else if (!values.length) {
    body = <p className="muted">{text.none}</p>;
  } else {
    body = (
      <>
        <input
          ref={searchRef}
          type="search"
          className="facet-panel__search"
          aria-label={text.search}
          placeholder={`${text.search}…`}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <ValueChecklist
          className="facet-panel__list"
          values={shown}
          checked={checked}
          onToggle={toggle}
        />
        {shown.length === 0 ? <p className="muted">Nothing matches “{search}”.</p> : null}
      </>
    );
  }

  return (
    <div ref={panelRef} id={id} className="popover facet-panel" role="group" aria-label={text.name}>
      <p className="facet-panel__hint">{text.hint}</p>
      {data?.source === 'recent' ? (
        <p className="facet-panel__note">
          From recent pages: this server does not list every host and label.
        </p>
      ) : null}
      {body}
      <div className="facet-panel__actions">
        <Button onClick={() => onClose(true)}>Done</Button>
      </div>
    </div>
  );
}
