import { useId, useState, type ReactNode } from 'react';

import { Button } from '../../../components/button.tsx';
import {
  FILTER_KINDS,
  filterFormOf,
  filterFromForm,
  newFilterForm,
  type FilterForm,
  type FilterKey,
} from '../filter-form.ts';
import type { ViewFilterInput } from '../view-draft.ts';
import { LABEL_OPERATOR_LABELS, PERIOD_LABELS, PERIOD_ORDER } from '../view-summary.ts';
import { ValuePicker, type FacetValue } from './value-picker.tsx';

export interface FilterSuggestions {
  hosts: readonly FacetValue[];
  labels: readonly FacetValue[];
}

export interface FilterBuilderProps {
  /** The filter being edited; absent for a new one. */
  filter?: ViewFilterInput;
  suggestions?: FilterSuggestions;
  onDone: (filter: ViewFilterInput) => void;
  onCancel: () => void;
}

const COMPARISONS = ['equal to', 'not equal to', 'more than', 'fewer than'] as const;

interface ChoiceProps {
  legend: string;
  value: boolean;
  yes: string;
  no: string;
  onChange: (value: boolean) => void;
}

/** Two radio buttons for a yes / no filter. */
function Choice({ legend, value, yes, no, onChange }: ChoiceProps) {
  const name = useId();
  return (
    <fieldset className="filter-builder__choice">
      <legend className="visually-hidden">{legend}</legend>
      {[
        [true, yes],
        [false, no],
      ].map(([option, text]) => (
        <label key={String(option)} className="filter-builder__radio">
          <input
            type="radio"
            name={name}
            checked={value === option}
            onChange={() => onChange(option as boolean)}
          />
          {text}
        </label>
      ))}
    </fieldset>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="form__field form__field--inline">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/**
 * Builds one filter: its kind, then that kind's controls (host is / is not and a multi-select of
 * hosts, liked, read status, highlight count, date added, labels, duplicate link or title).
 */
export function FilterBuilder({ filter, suggestions, onDone, onCancel }: FilterBuilderProps) {
  const id = useId();
  const [form, setForm] = useState<FilterForm>(() =>
    filter ? filterFormOf(filter) : newFilterForm('host'),
  );
  const [error, setError] = useState<string | null>(null);
  const update = (next: FilterForm) => {
    setForm(next);
    setError(null);
  };
  const done = () => {
    const result = filterFromForm(form);
    if ('error' in result) setError(result.error);
    else onDone(result.filter);
  };

  let controls: ReactNode;
  switch (form.key) {
    case 'host':
      controls = (
        <>
          <Field label="Host" id={`${id}-host-op`}>
            <select
              id={`${id}-host-op`}
              value={form.isOneOf ? 'is' : 'not'}
              onChange={(event) => update({ ...form, isOneOf: event.target.value === 'is' })}
            >
              <option value="is">is</option>
              <option value="not">is not</option>
            </select>
          </Field>
          <ValuePicker
            kind="host"
            values={form.hosts}
            suggestions={suggestions?.hosts}
            onChange={(hosts) => update({ ...form, hosts })}
          />
        </>
      );
      break;
    case 'liked':
      controls = (
        <Choice
          legend="Liked"
          value={form.value}
          yes="Liked"
          no="Not liked"
          onChange={(value) => update({ ...form, value })}
        />
      );
      break;
    case 'read-status':
      controls = (
        <Choice
          legend="Read status"
          value={form.value}
          yes="Read"
          no="Unread"
          onChange={(value) => update({ ...form, value })}
        />
      );
      break;
    case 'link-duplicate':
      controls = (
        <Choice
          legend="Link"
          value={form.value}
          yes="Duplicate link"
          no="Unique link"
          onChange={(value) => update({ ...form, value })}
        />
      );
      break;
    case 'title-duplicate':
      controls = (
        <Choice
          legend="Title"
          value={form.value}
          yes="Duplicate title"
          no="Unique title"
          onChange={(value) => update({ ...form, value })}
        />
      );
      break;
    case 'annotation':
      controls = (
        <>
          <Field label="Highlights" id={`${id}-comparison`}>
            <select
              id={`${id}-comparison`}
              value={form.operator}
              onChange={(event) =>
                update({ ...form, operator: Number(event.target.value) as 0 | 1 | 2 | 3 })
              }
            >
              {COMPARISONS.map((text, operator) => (
                <option key={text} value={operator}>
                  {text}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Number of highlights" id={`${id}-count`}>
            <input
              id={`${id}-count`}
              className="input--narrow"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={form.count}
              aria-invalid={error ? true : undefined}
              onChange={(event) => update({ ...form, count: event.target.value })}
              onKeyDown={(event) => {
                // Enter finishes the filter (it would otherwise submit the whole view).
                if (event.key !== 'Enter') return;
                event.preventDefault();
                done();
              }}
            />
          </Field>
        </>
      );
      break;
    case 'first-add-time':
      controls = (
        <>
          <Field label="Added" id={`${id}-when`}>
            <select
              id={`${id}-when`}
              value={form.operator}
              onChange={(event) =>
                update({ ...form, operator: Number(event.target.value) as 0 | 1 })
              }
            >
              <option value={0}>before the start of</option>
              <option value={1}>after the start of</option>
            </select>
          </Field>
          <Field label="Period" id={`${id}-period`}>
            <select
              id={`${id}-period`}
              value={form.period}
              onChange={(event) =>
                update({ ...form, period: Number(event.target.value) as 0 | 1 | 2 | 3 | 4 | 5 })
              }
            >
              {PERIOD_ORDER.map((period) => (
                <option key={period} value={period}>
                  {PERIOD_LABELS[period]}
                </option>
              ))}
            </select>
          </Field>
        </>
      );
      break;
    case 'label':
      controls = (
        <>
          <Field label="The webpage" id={`${id}-label-op`}>
            <select
              id={`${id}-label-op`}
              value={form.operator}
              onChange={(event) =>
                update({ ...form, operator: Number(event.target.value) as 0 | 1 | 2 | 3 })
              }
            >
              {LABEL_OPERATOR_LABELS.map((text, operator) => (
                <option key={text} value={operator}>
                  {text} these labels
                </option>
              ))}
            </select>
          </Field>
          <ValuePicker
            kind="label"
            values={form.labels}
            suggestions={suggestions?.labels}
            onChange={(labels) => update({ ...form, labels })}
          />
        </>
      );
      break;
  }

  const heading = filter ? 'Edit filter' : 'New filter';
  return (
    <div className="filter-builder" role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="section-title">
        {heading}
      </h3>
      <Field label="Filter by" id={`${id}-kind`}>
        <select
          id={`${id}-kind`}
          value={form.key}
          onChange={(event) => update(newFilterForm(event.target.value as FilterKey))}
        >
          {FILTER_KINDS.map((kind) => (
            <option key={kind.key} value={kind.key}>
              {kind.name}
            </option>
          ))}
        </select>
      </Field>
      <div className="filter-builder__controls">{controls}</div>
      {form.key === 'link-duplicate' || form.key === 'title-duplicate' ? (
        <p className="form__hint">
          Duplicate: another webpage has exactly the same{' '}
          {form.key === 'link-duplicate' ? 'link' : 'title'}. A real HamsterBase server never
          matches this filter; Folio&apos;s server does.
        </p>
      ) : null}
      {error ? (
        <p className="form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form__actions">
        <Button variant="primary" onClick={done}>
          {filter ? 'Update filter' : 'Add filter'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}
