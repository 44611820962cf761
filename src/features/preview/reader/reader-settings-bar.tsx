// The reader's typography and theme: one labelled select per setting (native, keyboard and screen
// reader friendly), each change applied at once and remembered on this device.
import { useId } from 'react';

import {
  READER_FONTS,
  READER_LINE_HEIGHTS,
  READER_SIZES,
  READER_THEMES,
  READER_WIDTHS,
  type ReaderSettings,
} from './reader-settings.ts';

const FONT_LABELS = { serif: 'Serif', sans: 'Sans-serif' } as const;
const WIDTH_LABELS = { narrow: 'Narrow', medium: 'Medium', wide: 'Wide' } as const;
const THEME_LABELS = {
  auto: 'Like the app',
  light: 'Light',
  sepia: 'Sepia',
  dark: 'Dark',
} as const;

interface SelectProps<T extends string | number> {
  label: string;
  value: T;
  choices: readonly T[];
  text: (choice: T) => string;
  onChange: (value: T) => void;
}

function Select<T extends string | number>({
  label,
  value,
  choices,
  text,
  onChange,
}: SelectProps<T>) {
  const id = useId();
  return (
    <span className="reader-setting">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={String(value)}
        onChange={(event) => {
          const chosen = choices.find((choice) => String(choice) === event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {choices.map((choice) => (
          <option key={String(choice)} value={String(choice)}>
            {text(choice)}
          </option>
        ))}
      </select>
    </span>
  );
}

export interface ReaderSettingsBarProps {
  settings: ReaderSettings;
  onChange: (settings: ReaderSettings) => void;
}

export function ReaderSettingsBar({ settings, onChange }: ReaderSettingsBarProps) {
  const set =
    <K extends keyof ReaderSettings>(key: K) =>
    (value: ReaderSettings[K]) =>
      onChange({ ...settings, [key]: value });
  return (
    <div className="reader-settings" role="group" aria-label="Reader settings">
      <Select
        label="Font"
        value={settings.font}
        choices={READER_FONTS}
        text={(font) => FONT_LABELS[font]}
        onChange={set('font')}
      />
      <Select
        label="Size"
        value={settings.size}
        choices={READER_SIZES}
        text={(size) => `${size} px`}
        onChange={set('size')}
      />
      <Select
        label="Width"
        value={settings.width}
        choices={READER_WIDTHS}
        text={(width) => WIDTH_LABELS[width]}
        onChange={set('width')}
      />
      <Select
        label="Line height"
        value={settings.lineHeight}
        choices={READER_LINE_HEIGHTS}
        text={(height) => String(height)}
        onChange={set('lineHeight')}
      />
      <Select
        label="Theme"
        value={settings.theme}
        choices={READER_THEMES}
        text={(theme) => THEME_LABELS[theme]}
        onChange={set('theme')}
      />
    </div>
  );
}
