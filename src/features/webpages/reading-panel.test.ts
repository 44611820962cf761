import { afterEach, describe, expect, it, vi } from 'vitest';

import { loadPanelState, PANEL_STORAGE_KEY, savePanelState } from './reading-panel.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the side panel’s remembered state', () => {
  it('is open until collapsed, and remembers either choice', () => {
    expect(loadPanelState()).toBe('open');
    savePanelState('collapsed');
    expect(localStorage.getItem(PANEL_STORAGE_KEY)).toBe('collapsed');
    expect(loadPanelState()).toBe('collapsed');
    savePanelState('open');
    expect(loadPanelState()).toBe('open');
  });

  it('is open when storage holds something else or refuses', () => {
    localStorage.setItem(PANEL_STORAGE_KEY, 'sideways');
    expect(loadPanelState()).toBe('open');
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('denied');
    });
    expect(() => savePanelState('collapsed')).not.toThrow();
    expect(loadPanelState()).toBe('open');
  });
});
