// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';

import { applyTheme, loadTheme, saveTheme, THEME_STORAGE_KEY } from './theme.ts';

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('theme', () => {
  it('follows the system until a choice is saved', () => {
    expect(loadTheme()).toBe('system');
    saveTheme('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(loadTheme()).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('ignores unknown stored values', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(loadTheme()).toBe('system');
  });

  it('applies a theme to the document element', () => {
    applyTheme('light');
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
  });
});
