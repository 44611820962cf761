import { useMemo, useState, type KeyboardEvent } from 'react';

import type { components } from '../../../../shared/contract/schema.gen.ts';
import { Button } from '../../../components/button.tsx';
import { ValueChecklist } from '../../../components/value-checklist.tsx';
import { normalizeHost } from '../filter-form.ts';

export type FacetValue = components['schemas']['FacetValue'];

export interface ValuePickerProps {
  kind: 'host' | 'label';
  /** The chosen values. */
  values: readonly string[];
  onChange: (values: string[]) => void;
  /** Values in use in the archive, most used first. */
  suggestions?: readonly FacetValue[];
}

const TEXT = {
  host: { group: 'Hosts', search: 'Search hosts', none: 'No webpage has a link yet.' },
  label: { group: 'Labels', search: 'Search labels', none: 'No labels yet.' },
} as const;

/** How many values the list shows at once; a search narrows it. */
const SHOWN = 50;

const MAX_VALUE_LENGTH = 300;

function clean(kind: ValuePickerProps['kind'], text: string): string | null {
  if (kind === 'host') return normalizeHost(text);
  const value = text.trim();
  return value && value.length <= MAX_VALUE_LENGTH ? value : null;
}

/**
 * A multi-select of hosts or labels with search: the archive's values (with their counts) as
 * checkboxes, the chosen ones first; a value that is not in the list can be typed and added.
 */
export function ValuePicker({ kind, values, onChange, suggestions = [] }: ValuePickerProps) {
  const [search, setSearch] = useState('');
  const text = TEXT[kind];
  const chosen = new Set(values);

  const all = useMemo((): FacetValue[] => {
    const known = new Set(suggestions.map((facet) => facet.value));
    const extra = values.filter((value) => !known.has(value)).map((value) => ({ value, count: 0 }));
    return [...extra, ...suggestions];
  }, [suggestions, values]);
  const needle = search.trim().toLowerCase();
  const matching = needle ? all.filter((facet) => facet.value.toLowerCase().includes(needle)) : all;
  const shown = matching.slice(0, SHOWN);
  const typed = clean(kind, search);
  const canAdd = typed !== null && !all.some((facet) => facet.value === typed);

  const toggle = (value: string) =>
    onChange(chosen.has(value) ? values.filter((v) => v !== value) : [...values, value]);
  const add = () => {
    if (typed === null) return;
    if (!chosen.has(typed)) onChange([...values, typed]);
    setSearch('');
  };
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds what was typed (or checks the one value that matches) instead of submitting.
    event.preventDefault();
    if (canAdd) add();
    else if (matching.length === 1 && !chosen.has(matching[0]!.value)) toggle(matching[0]!.value);
  };

  return (
    <div className="value-picker" role="group" aria-label={text.group}>
      <input
        type="search"
        className="value-picker__search"
        aria-label={text.search}
        placeholder={`${text.search}…`}
        value={search}
        maxLength={MAX_VALUE_LENGTH}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={onSearchKey}
      />
      {canAdd ? (
        <Button className="value-picker__add" onClick={add}>
          Add “{typed}”
        </Button>
      ) : null}
      {all.length === 0 && !search ? <p className="muted">{text.none}</p> : null}
      {shown.length ? (
        <ValueChecklist
          className="value-picker__list"
          values={shown}
          checked={chosen}
          onToggle={toggle}
          countText={(count) => (count === 1 ? '1 page' : `${count} pages`)}
        />
      ) : null}
      {matching.length > SHOWN ? (
        <p className="form__hint">{matching.length - SHOWN} more; search to narrow the list.</p>
      ) : null}
      {needle && !matching.length && !canAdd ? (
        <p className="muted">Nothing matches “{search.trim()}”.</p>
      ) : null}
      <p className="form__hint" aria-live="polite">
        {values.length ? `Chosen: ${values.join(', ')}` : 'None chosen yet.'}
      </p>
    </div>
  );
}
