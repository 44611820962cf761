// Reader mode's typography and theme, remembered per device in localStorage (like the detail's
// panel, `folio.detail.panel`). Whatever is stored is read back through the same choices as the
// settings offer: an unknown or tampered value falls back to the default.

export type ReaderFont = 'serif' | 'sans';
export type ReaderWidth = 'narrow' | 'medium' | 'wide';
/** `auto` follows the app's theme (its light or dark, the system's when the app follows it). */
export type ReaderTheme = 'auto' | 'light' | 'sepia' | 'dark';

export interface ReaderSettings {
  font: ReaderFont;
  /** Text size in CSS pixels, one of READER_SIZES. */
  size: number;
  width: ReaderWidth;
  /** Line height (unitless), one of READER_LINE_HEIGHTS. */
  lineHeight: number;
  theme: ReaderTheme;
}

export const READER_FONTS: readonly ReaderFont[] = ['serif', 'sans'];
export const READER_SIZES: readonly number[] = [14, 16, 18, 20, 22, 24, 28, 32];
export const READER_WIDTHS: readonly ReaderWidth[] = ['narrow', 'medium', 'wide'];
export const READER_LINE_HEIGHTS: readonly number[] = [1.3, 1.5, 1.7, 2];
export const READER_THEMES: readonly ReaderTheme[] = ['auto', 'light', 'sepia', 'dark'];

export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  font: 'serif',
  size: 18,
  width: 'medium',
  lineHeight: 1.7,
  theme: 'auto',
};

export const READER_SETTINGS_STORAGE_KEY = 'folio.reader.settings';

function pick<T>(choices: readonly T[], value: unknown, fallback: T): T {
  return choices.includes(value as T) ? (value as T) : fallback;
}

/** The stored settings, each one checked against its choices. */
export function loadReaderSettings(): ReaderSettings {
  let stored: Record<string, unknown> = {};
  try {
    const text = globalThis.localStorage?.getItem(READER_SETTINGS_STORAGE_KEY);
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed !== null && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // Unavailable storage or an unreadable value: the defaults.
  }
  const defaults = DEFAULT_READER_SETTINGS;
  return {
    font: pick(READER_FONTS, stored.font, defaults.font),
    size: pick(READER_SIZES, stored.size, defaults.size),
    width: pick(READER_WIDTHS, stored.width, defaults.width),
    lineHeight: pick(READER_LINE_HEIGHTS, stored.lineHeight, defaults.lineHeight),
    theme: pick(READER_THEMES, stored.theme, defaults.theme),
  };
}

export function saveReaderSettings(settings: ReaderSettings): void {
  try {
    globalThis.localStorage?.setItem(READER_SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage refused: the settings hold until the detail is left.
  }
}

/** The theme the reader shows: `auto` becomes the app's light or dark. */
export function resolveReaderTheme(
  theme: ReaderTheme,
  appTheme: string | undefined = globalThis.document?.documentElement.dataset.theme,
  prefersDark: () => boolean = () =>
    globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
): Exclude<ReaderTheme, 'auto'> {
  if (theme !== 'auto') return theme;
  if (appTheme === 'light' || appTheme === 'dark') return appTheme;
  return prefersDark() ? 'dark' : 'light';
}
