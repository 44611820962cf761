import { lazy, Suspense, useId, useRef, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import {
  WebpageFilterChips,
  WebpageFilterSelects,
} from '../../../components/webpage-filter-fields.tsx';
import {
  PER_PAGE_OPTIONS,
  SORT_LABELS,
  WEBPAGE_SORTS,
  updateFilters,
  type ListFilters,
  type PerPage,
  type WebpageSort,
} from '../filters.ts';

import type { FacetKind } from './facet-panel.tsx';

// The multi-select panels (and the facets they fetch) load when a menu first opens.
const FacetPanel = lazy(() =>
  import('./facet-panel.tsx').then((module) => ({ default: module.FacetPanel })),
);

/** Where `/` moves the focus: the first control of the list's filters. */
export const LIST_FILTERS_ID = 'list-filters';

interface FacetMenuProps {
  kind: FacetKind;
  label: string;
  selected: readonly string[];
  onChange: (values: string[]) => void;
}

/** A button that opens a multi-select panel of the values in use (hosts or labels). */
function FacetMenu({ kind, label, selected, onChange }: FacetMenuProps) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  return (
    <span className="facet-menu">
      <Button
        ref={buttonRef}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        {label}
        {selected.length ? (
          <span className="facet-menu__count" aria-hidden="true">
            {selected.length}
          </span>
        ) : null}
        <span aria-hidden="true">▾</span>
      </Button>
      {open ? (
        <Suspense fallback={<span className="facet-panel muted">Loading…</span>}>
          <FacetPanel
            id={panelId}
            kind={kind}
            selected={selected}
            onChange={onChange}
            onClose={(returnFocus) => {
              setOpen(false);
              if (returnFocus) buttonRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </span>
  );
}

export interface WebpageListControlsProps {
  filters: ListFilters;
  onChange: (filters: ListFilters) => void;
}

/** Sort, filters and page size of the webpage list; every change goes through `onChange`. */
export function WebpageListControls({ filters, onChange }: WebpageListControlsProps) {
  const id = useId();
  const change = (patch: Partial<ListFilters>) => onChange(updateFilters(filters, patch));

  return (
    <div id={LIST_FILTERS_ID} className="toolbar" role="group" aria-label="Sort and filter">
      <SelectField
        id={`${id}-sort`}
        label="Sort"
        value={filters.sort}
        options={WEBPAGE_SORTS.map((sort) => [sort, SORT_LABELS[sort]] as const)}
        onChange={(sort) => change({ sort: sort as WebpageSort })}
      />
      <WebpageFilterSelects id={id} filters={filters} onChange={change} />
      <FacetMenu
        kind="host"
        label="Hosts"
        selected={filters.host}
        onChange={(host) => change({ host })}
      />
      <FacetMenu
        kind="label"
        label="Labels"
        selected={filters.labels}
        onChange={(labels) => change({ labels })}
      />
      <SelectField
        id={`${id}-per-page`}
        label="Per page"
        value={filters.perPage}
        options={PER_PAGE_OPTIONS.map((size) => [size, String(size)] as const)}
        onChange={(size) => change({ perPage: Number(size) as PerPage })}
      />
      <WebpageFilterChips filters={filters} onChange={change} />
    </div>
  );
}
