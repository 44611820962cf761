import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';

import { Button } from '../../../components/button.tsx';

export interface EditableFieldProps {
  /** What the field is, in lowercase ("title"): the button is "Edit title", the input "Title". */
  name: string;
  value: string;
  /** The value as shown when not editing. */
  children: ReactNode;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  /** Saves; a rejection's message is shown and the typed text kept. */
  onSave: (value: string) => Promise<unknown>;
  /** A message when the value cannot be sent, else null. */
  validate?: (value: string) => string | null;
  multiline?: boolean;
  /**
   * The longest value the field takes (UTF-16 code units, as the input counts them): typing stops
   * there and says so, and a longer value (one stored before the limit existed) is not sent.
   */
  maxLength?: number;
  hint?: string;
  className?: string;
}

const numberFormat = new Intl.NumberFormat('en');

function count(value: number): string {
  return numberFormat.format(value);
}

interface EditFormProps extends Omit<EditableFieldProps, 'children' | 'editing' | 'className'> {
  label: string;
}

function EditForm({
  name,
  label,
  value,
  onEditingChange,
  onSave,
  validate,
  multiline,
  maxLength,
  hint,
}: EditFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (saving) return;
    const invalid = validate?.(draft) ?? null;
    if (invalid) {
      setProblem(invalid);
      return;
    }
    if (draft === value) {
      onEditingChange(false);
      return;
    }
    if (maxLength !== undefined && draft.length > maxLength) {
      setProblem(
        `The ${name} can have at most ${count(maxLength)} characters; this one has ${count(draft.length)}.`,
      );
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      await onSave(draft);
      onEditingChange(false);
    } catch (error) {
      setProblem(`Could not save the ${name}: ${error instanceof Error ? error.message : error}`);
      setSaving(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onEditingChange(false);
    } else if (event.key === 'Enter' && multiline && !event.shiftKey) {
      // Enter saves; Shift+Enter is a new line.
      event.preventDefault();
      void save();
    }
  };
  const atLimit = maxLength !== undefined && draft.length >= maxLength;
  const describedBy = [
    problem ? `${id}-problem` : '',
    hint ? `${id}-hint` : '',
    atLimit ? `${id}-limit` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const fieldProps = {
    id: `${id}-input`,
    value: draft,
    maxLength,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onKeyDown,
  } as const;

  return (
    <form className="edit-form" onSubmit={onSubmit} aria-label={`Edit ${name}`}>
      <label className="visually-hidden" htmlFor={`${id}-input`}>
        {label}
      </label>
      {multiline ? (
        <textarea
          {...fieldProps}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the user asked to edit this field
          autoFocus
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
        />
      ) : (
        <input
          {...fieldProps}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the user asked to edit this field
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
        />
      )}
      <div className="edit-form__actions">
        <Button type="submit" variant="primary" disabled={saving} aria-busy={saving}>
          Save
        </Button>
        <Button onClick={() => onEditingChange(false)}>Cancel</Button>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="form__hint">
          {hint}
        </p>
      ) : null}
      <p id={`${id}-limit`} className="form__hint" aria-live="polite">
        {atLimit
          ? `The ${name} has reached its limit of ${count(maxLength)} characters: more is not kept.`
          : null}
      </p>
      {problem ? (
        <p id={`${id}-problem`} className="form__error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A value with an "Edit <name>" button that turns it into a field with Save and Cancel: Enter
 * saves, Escape cancels. Invalid input is not sent; a refused save keeps the typed text and shows
 * the server's message.
 */
export function EditableField({ children, editing, className, ...props }: EditableFieldProps) {
  const label = props.name.charAt(0).toUpperCase() + props.name.slice(1);
  if (editing) return <EditForm label={label} {...props} />;
  return (
    <div className={className ? `editable ${className}` : 'editable'}>
      {children}
      <Button
        variant="ghost"
        className="editable__button"
        aria-label={`Edit ${props.name}`}
        onClick={() => props.onEditingChange(true)}
      >
        Edit
      </Button>
    </div>
  );
}
