import { useId } from 'react';

export interface ChecklistValue {
  value: string;
  /** Shown beside the value (and read with its checkbox) unless 0. */
  count: number;
}

export interface ValueChecklistProps {
  values: readonly ChecklistValue[];
  checked: ReadonlySet<string>;
  onToggle: (value: string) => void;
  /** How a count reads; the number alone by default. */
  countText?: (count: number) => string;
  /** The list's own class (its size and frame). */
  className: string;
}

/** A list of values with a checkbox each and how many pages have it (the filter menus, views). */
export function ValueChecklist({
  values,
  checked,
  onToggle,
  countText = String,
  className,
}: ValueChecklistProps) {
  const id = useId();
  return (
    <ul className={className}>
      {values.map((facet, index) => (
        <li key={facet.value} className="value-checklist__item">
          <label className="value-checklist__label">
            <input
              type="checkbox"
              checked={checked.has(facet.value)}
              onChange={() => onToggle(facet.value)}
              aria-describedby={facet.count ? `${id}-count-${index}` : undefined}
            />
            <span className="value-checklist__value">{facet.value}</span>
          </label>
          {facet.count ? (
            <span id={`${id}-count-${index}`} className="value-checklist__count">
              {countText(facet.count)}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
