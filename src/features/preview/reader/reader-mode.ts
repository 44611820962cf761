// Whether the detail shows the reader view: the address says so first (`?mode=reader`, so a
// reload or a shared link keeps it), else the choice remembered on this device. (`?view=` already
// carries the view a detail was opened from.)
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';

export const READER_MODE_STORAGE_KEY = 'folio.reader';
export const READER_MODE_PARAM = 'mode';
const READER = 'reader';
const PAGE = 'page';

export interface ReaderMode {
  on: boolean;
  setOn: (on: boolean) => void;
}

export function loadReaderMode(): boolean {
  try {
    return globalThis.localStorage?.getItem(READER_MODE_STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function saveReaderMode(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(READER_MODE_STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused: the address still carries the choice.
  }
}

/** The mode an address asks for, or null when it says nothing. */
export function readerModeOf(search: URLSearchParams): boolean | null {
  const value = search.get(READER_MODE_PARAM);
  return value === READER ? true : value === PAGE ? false : null;
}

/** Reader mode on / off for the detail, kept in the address and on this device. */
export function useReaderMode(): ReaderMode {
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const [remembered, setRemembered] = useState(loadReaderMode);
  const on = readerModeOf(search) ?? remembered;
  const setOn = (next: boolean) => {
    saveReaderMode(next);
    setRemembered(next);
    setSearch(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next) updated.set(READER_MODE_PARAM, READER);
        else updated.delete(READER_MODE_PARAM);
        return updated;
      },
      // Keeps the list it was opened from (Previous / Next) and does not add a history entry.
      { replace: true, preventScrollReset: true, state: location.state as unknown },
    );
  };
  return { on, setOn };
}
