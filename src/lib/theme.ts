// The colour theme: `system` follows the operating system (prefers-color-scheme), `light` and `dark`
// force one. Kept in localStorage and applied as `data-theme` on <html> before the first render (the
// CSP forbids inline scripts, so main.tsx does it); the CSS variables do the rest.

export type Theme = 'system' | 'light' | 'dark';

export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
export const THEME_STORAGE_KEY = 'folio.theme';

function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}

/** The stored choice, `system` when none (or storage is unavailable). */
export function loadTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Sets `data-theme` on the document element. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
}

/** Remembers the choice and applies it. */
export function saveTheme(theme: Theme): void {
  try {
    globalThis.localStorage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
  applyTheme(theme);
}
