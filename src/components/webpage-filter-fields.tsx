// The webpage filters' controls that the library and search share. Presentational: the screen
// owns the filters (in its URL) and gets every change through `onChange`.
import {
  hasWebpageFilters,
  noWebpageFilters,
  TRI_STATES,
  WEBPAGE_EXTS,
  type TriState,
  type WebpageExt,
  type WebpageFilters,
} from '../lib/webpage-filters.ts';
import { Button } from './button.tsx';
import { SelectField } from './select-field.tsx';

export interface WebpageFilterFieldsProps {
  filters: WebpageFilters;
  onChange: (change: Partial<WebpageFilters>) => void;
}

const TRI_STATE_LABELS: Record<'liked' | 'read' | 'annotated', Record<TriState, string>> = {
  liked: { any: 'Any', yes: 'Liked', no: 'Not liked' },
  read: { any: 'Any', yes: 'Read', no: 'Unread' },
  annotated: { any: 'Any', yes: 'With highlights', no: 'Without highlights' },
};

const FIELD_LABELS = { liked: 'Liked', read: 'Read', annotated: 'Highlights' } as const;
const ALL_FORMATS = 'all';

/** The Liked, Read, Highlights and Format selects; `id` prefixes their ids. */
export function WebpageFilterSelects({
  id,
  filters,
  onChange,
}: WebpageFilterFieldsProps & { id: string }) {
  const several = filters.ext.length > 1;
  const formatOptions: [string, string, boolean?][] = [
    [ALL_FORMATS, 'All'],
    ...WEBPAGE_EXTS.map((ext): [string, string] => [ext, ext]),
  ];
  if (several) formatOptions.push(['several', filters.ext.join(', '), true]);
  return (
    <>
      {(['liked', 'read', 'annotated'] as const).map((key) => (
        <SelectField
          key={key}
          id={`${id}-${key}`}
          label={FIELD_LABELS[key]}
          value={filters[key]}
          options={TRI_STATES.map((state) => [state, TRI_STATE_LABELS[key][state]] as const)}
          onChange={(state) => onChange({ [key]: state as TriState })}
        />
      ))}
      <SelectField
        id={`${id}-format`}
        label="Format"
        value={several ? 'several' : (filters.ext[0] ?? ALL_FORMATS)}
        options={formatOptions}
        onChange={(ext) => onChange({ ext: ext === ALL_FORMATS ? [] : [ext as WebpageExt] })}
      />
    </>
  );
}

/** The filters with a chip each: the field, and the chip's name. */
const CHIPS = [
  ['host', 'Host'],
  ['labels', 'Label'],
] as const;

/** A chip for every host and label filter, each with its remove button, and "Clear filters". */
export function WebpageFilterChips({ filters, onChange }: WebpageFilterFieldsProps) {
  return (
    <>
      {CHIPS.map(([key, name]) =>
        filters[key].map((value) => (
          <span key={`${key}:${value}`} className="chip chip--filter">
            {name}: {value}
            <button
              type="button"
              className="chip__remove"
              aria-label={`Remove ${name.toLowerCase()} filter ${value}`}
              onClick={() => onChange({ [key]: filters[key].filter((v) => v !== value) })}
            >
              ×
            </button>
          </span>
        )),
      )}
      {hasWebpageFilters(filters) ? (
        <Button variant="ghost" onClick={() => onChange(noWebpageFilters)}>
          Clear filters
        </Button>
      ) : null}
    </>
  );
}
