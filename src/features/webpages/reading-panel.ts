// Whether the detail's side panel (excerpt, link, labels, highlights) is shown beside the preview
// or collapsed so that the page takes the whole width. Kept in localStorage: the choice holds
// across reloads and for every webpage.

export type PanelState = 'open' | 'collapsed';

export const PANEL_STORAGE_KEY = 'folio.detail.panel';

/** The remembered choice; open when none (or storage is unavailable). */
export function loadPanelState(): PanelState {
  try {
    return globalThis.localStorage?.getItem(PANEL_STORAGE_KEY) === 'collapsed'
      ? 'collapsed'
      : 'open';
  } catch {
    return 'open';
  }
}

/** Remembers the choice (for this page only when storage refuses it). */
export function savePanelState(state: PanelState): void {
  try {
    globalThis.localStorage?.setItem(PANEL_STORAGE_KEY, state);
  } catch {
    // Storage refused: the choice holds until the detail is left.
  }
}
