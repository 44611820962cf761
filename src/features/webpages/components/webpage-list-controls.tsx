import { lazy, Suspense, useId, useRef, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import {
  PER_PAGE_OPTIONS,
  SORT_LABELS,
  TRI_STATES,
  WEBPAGE_EXTS,
  WEBPAGE_SORTS,
  hasActiveFilters,
  updateFilters,
  type ListFilters,
  type PerPage,
  type TriState,
  type WebpageExt,
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

const TRI_STATE_LABELS: Record<'liked' | 'read' | 'annotated', Record<TriState, string>> = {
  liked: { any: 'Any', yes: 'Liked', no: 'Not liked' },
  read: { any: 'Any', yes: 'Read', no: 'Unread' },
  annotated: { any: 'Any', yes: 'With highlights', no: 'Without highlights' },
};

const FIELD_LABELS = { liked: 'Liked', read: 'Read', annotated: 'Highlights' } as const;
const ALL_FORMATS = 'all';

interface SelectFieldProps {
  id: string;
  label: string;
  value: string | number;
  options: readonly (readonly [value: string | number, label: string, disabled?: boolean])[];
  onChange: (value: string) => void;
}

function SelectField({ id, label, value, options, onChange }: SelectFieldProps) {
  return (
    <label className="field" htmlFor={id}>
      <span className="field__label">{label}</span>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([optionValue, optionLabel, disabled]) => (
          <option key={optionValue} value={optionValue} disabled={disabled}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Sort, filters and page size of the webpage list; every change goes through `onChange`. */
export function WebpageListControls({ filters, onChange }: WebpageListControlsProps) {
  const id = useId();
  const change = (patch: Partial<ListFilters>) => onChange(updateFilters(filters, patch));
  const several = filters.ext.length > 1;
  const formatOptions: [string, string, boolean?][] = [
    [ALL_FORMATS, 'All'],
    ...WEBPAGE_EXTS.map((ext): [string, string] => [ext, ext]),
  ];
  if (several) formatOptions.push(['several', filters.ext.join(', '), true]);

  return (
    <div id={LIST_FILTERS_ID} className="toolbar" role="group" aria-label="Sort and filter">
      <SelectField
        id={`${id}-sort`}
        label="Sort"
        value={filters.sort}
        options={WEBPAGE_SORTS.map((sort) => [sort, SORT_LABELS[sort]] as const)}
        onChange={(sort) => change({ sort: sort as WebpageSort })}
      />
      {(['liked', 'read', 'annotated'] as const).map((key) => (
        <SelectField
          key={key}
          id={`${id}-${key}`}
          label={FIELD_LABELS[key]}
          value={filters[key]}
          options={TRI_STATES.map((state) => [state, TRI_STATE_LABELS[key][state]] as const)}
          onChange={(state) => change({ [key]: state as TriState })}
        />
      ))}
      <SelectField
        id={`${id}-format`}
        label="Format"
        value={several ? 'several' : (filters.ext[0] ?? ALL_FORMATS)}
        options={formatOptions}
        onChange={(ext) => change({ ext: ext === ALL_FORMATS ? [] : [ext as WebpageExt] })}
      />
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
      {filters.host.map((host) => (
        <span key={`host:${host}`} className="chip chip--filter">
          Host: {host}
          <button
            type="button"
            className="chip__remove"
            aria-label={`Remove host filter ${host}`}
            onClick={() => change({ host: filters.host.filter((h) => h !== host) })}
          >
            ×
          </button>
        </span>
      ))}
      {filters.labels.map((label) => (
        <span key={`label:${label}`} className="chip chip--filter">
          Label: {label}
          <button
            type="button"
            className="chip__remove"
            aria-label={`Remove label filter ${label}`}
            onClick={() => change({ labels: filters.labels.filter((l) => l !== label) })}
          >
            ×
          </button>
        </span>
      ))}
      {hasActiveFilters(filters) ? (
        <Button
          variant="ghost"
          onClick={() =>
            change({ liked: 'any', read: 'any', annotated: 'any', host: [], labels: [], ext: [] })
          }
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
