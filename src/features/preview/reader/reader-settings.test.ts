import { afterEach, describe, expect, it } from 'vitest';

import { loadReaderMode, readerModeOf, saveReaderMode } from './reader-mode.ts';
import {
  DEFAULT_READER_SETTINGS,
  loadReaderSettings,
  READER_SETTINGS_STORAGE_KEY,
  resolveReaderTheme,
  saveReaderSettings,
} from './reader-settings.ts';

afterEach(() => localStorage.clear());

describe('reader settings', () => {
  it('are the defaults until saved, then what was saved', () => {
    expect(loadReaderSettings()).toEqual(DEFAULT_READER_SETTINGS);
    const chosen = {
      font: 'sans',
      size: 24,
      width: 'wide',
      lineHeight: 2,
      theme: 'sepia',
    } as const;
    saveReaderSettings(chosen);
    expect(loadReaderSettings()).toEqual(chosen);
  });

  it('read a tampered or unreadable value back as the defaults, setting by setting', () => {
    localStorage.setItem(
      READER_SETTINGS_STORAGE_KEY,
      JSON.stringify({
        font: 'comic',
        size: 9999,
        width: 'wide',
        lineHeight: '2',
        theme: '__proto__',
      }),
    );
    expect(loadReaderSettings()).toEqual({ ...DEFAULT_READER_SETTINGS, width: 'wide' });
    localStorage.setItem(READER_SETTINGS_STORAGE_KEY, '{not json');
    expect(loadReaderSettings()).toEqual(DEFAULT_READER_SETTINGS);
  });

  it('resolve the "like the app" theme from the app theme, then the system', () => {
    expect(resolveReaderTheme('sepia', 'dark', () => true)).toBe('sepia');
    expect(resolveReaderTheme('auto', 'dark', () => false)).toBe('dark');
    expect(resolveReaderTheme('auto', 'light', () => true)).toBe('light');
    expect(resolveReaderTheme('auto', 'system', () => true)).toBe('dark');
    expect(resolveReaderTheme('auto', 'system', () => false)).toBe('light');
  });
});

describe('reader mode', () => {
  it('is what the address says, else what this device remembers', () => {
    expect(readerModeOf(new URLSearchParams('mode=reader&view=v1'))).toBe(true);
    expect(readerModeOf(new URLSearchParams('mode=page'))).toBe(false);
    expect(readerModeOf(new URLSearchParams('view=reader'))).toBeNull();
    expect(loadReaderMode()).toBe(false);
    saveReaderMode(true);
    expect(loadReaderMode()).toBe(true);
    saveReaderMode(false);
    expect(loadReaderMode()).toBe(false);
  });
});
