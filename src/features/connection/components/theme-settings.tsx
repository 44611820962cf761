import { useId, useState } from 'react';

import { loadTheme, saveTheme, THEMES, type Theme } from '../../../lib/theme.ts';

const THEME_LABELS: Record<Theme, string> = {
  system: 'Same as the system',
  light: 'Light',
  dark: 'Dark',
};

/** The colour theme: follow the system, or always light or dark. Remembered on this device. */
export function ThemeSettings() {
  const id = useId();
  const [theme, setTheme] = useState(loadTheme);
  const choose = (next: Theme) => {
    setTheme(next);
    saveTheme(next);
  };
  return (
    <fieldset className="settings-panel" aria-describedby={`${id}-hint`}>
      <legend className="section-title">Theme</legend>
      <p id={`${id}-hint`} className="muted">
        Saved pages are always shown as they were archived.
      </p>
      <div className="choices">
        {THEMES.map((value) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name={`${id}-theme`}
              value={value}
              checked={theme === value}
              onChange={() => choose(value)}
            />
            {THEME_LABELS[value]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
