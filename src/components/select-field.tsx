export interface SelectFieldProps {
  id: string;
  label: string;
  value: string | number;
  options: readonly (readonly [value: string | number, label: string, disabled?: boolean])[];
  onChange: (value: string) => void;
}

/** A labelled `<select>` of a toolbar. */
export function SelectField({ id, label, value, options, onChange }: SelectFieldProps) {
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
