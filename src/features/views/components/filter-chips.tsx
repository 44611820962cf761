import { isKnownFilter } from '../filter-form.ts';
import type { ViewFilterInput } from '../view-draft.ts';
import { describeFilter } from '../view-summary.ts';

export interface FilterChipsProps {
  filters: readonly ViewFilterInput[];
  /** Names the list, e.g. "Filters". */
  label: string;
  /** Makes each chip editable (the one being edited is marked). */
  onEdit?: (index: number) => void;
  onRemove?: (index: number) => void;
  editing?: number | null;
}

/** A view's filters as readable chips ("Host is example.org"), each editable and removable. */
export function FilterChips({
  filters,
  label,
  onEdit,
  onRemove,
  editing = null,
}: FilterChipsProps) {
  return (
    <ul className="chips filter-chips" aria-label={label}>
      {filters.map((filter, index) => {
        const text = describeFilter(filter);
        return (
          // Filters have no id before they are saved; their place is their identity.
          <li
            key={index}
            className={editing === index ? 'chip chip--filter chip--editing' : 'chip chip--filter'}
          >
            {onEdit && isKnownFilter(filter) ? (
              <button
                type="button"
                className="chip__edit"
                aria-label={`Edit filter: ${text}`}
                aria-pressed={editing === index}
                onClick={() => onEdit(index)}
              >
                {text}
              </button>
            ) : (
              <span>{text}</span>
            )}
            {onRemove ? (
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove filter: ${text}`}
                onClick={() => onRemove(index)}
              >
                ×
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
