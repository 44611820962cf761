import { useEffect, useEffectEvent, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

import { ignoresShortcut } from '../../../components/use-shortcuts.ts';
import { paths, routePatterns } from '../../../lib/paths.ts';

/** Typing waits this long before searching, so each keystroke does not send a request. */
export const SEARCH_DEBOUNCE_MS = 200;

/** Location state asking the search page to move focus to its first result. */
export interface SearchLocationState {
  focusResults?: boolean;
}

const fieldById = (id: string) => document.getElementById(id) as HTMLInputElement | null;

export interface SearchBoxBehaviourProps {
  /** The search field (inside its form). */
  inputId: string;
}

/**
 * What the sidebar's search field does (loaded after the first paint): results as you type
 * (debounced) on `/search?q=…`, keeping the filters already there; Enter searches at once and moves
 * to the first result; the field follows the address on back and forward. `Ctrl+K` / `⌘K` focus it
 * anywhere, `/` everywhere but the library (where `/` goes to the list's filters).
 */
export function SearchBoxBehaviour({ inputId }: SearchBoxBehaviourProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const onSearchPage = location.pathname === routePatterns.search;
  const urlQuery = onSearchPage ? (new URLSearchParams(location.search).get('q') ?? '') : '';
  // The address's query at the last render: the field follows the address when it changes, and
  // only then (a render for anything else, before a search the field sent is shown, must not
  // take back what was typed meanwhile)…
  const seen = useRef<string | null>(null);
  // …but not to a query the field sent itself: on a busy machine the app can render the address
  // of an earlier search after a later one was sent. The queries sent since the address last
  // showed the latest, which is `latest`.
  const sent = useRef(new Set<string>());
  const latest = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const search = useEffectEvent((text: string, focusResults: boolean) => {
    clearTimeout(timer.current);
    const q = text.trim();
    if (!q && !onSearchPage) return;
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (onSearchPage) {
      for (const [name, value] of new URLSearchParams(location.search)) {
        if (name !== 'q' && name !== 'page') params.append(name, value);
      }
    }
    sent.current.add(q);
    latest.current = q;
    const state: SearchLocationState | undefined = focusResults ? { focusResults } : undefined;
    void navigate(paths.search(params), { replace: onSearchPage, state });
  });

  useEffect(() => {
    if (seen.current === urlQuery) return;
    const first = seen.current === null;
    seen.current = urlQuery;
    if (sent.current.has(urlQuery)) {
      if (urlQuery === latest.current) sent.current.clear();
      return;
    }
    sent.current.clear();
    const field = fieldById(inputId);
    if (!field || field.value.trim() === urlQuery) return;
    if (first && document.activeElement === field) {
      // Typed before this code loaded: search for it now, as typing does from here on.
      const text = field.value;
      timer.current = setTimeout(() => search(text, false), SEARCH_DEBOUNCE_MS);
    } else {
      field.value = urlQuery;
    }
  });

  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    const field = fieldById(inputId);
    if (!field || event.defaultPrevented) return;
    if (event.target instanceof Element && event.target.closest('dialog[open]')) return;
    const commandK =
      (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
    const slash =
      event.key === '/' && !ignoresShortcut(event) && location.pathname !== routePatterns.home;
    if (!commandK && !slash) return;
    event.preventDefault();
    field.focus();
    field.select();
  });

  useEffect(() => {
    const field = fieldById(inputId);
    const form = field?.form;
    if (!field || !form) return;
    const onInput = () => {
      clearTimeout(timer.current);
      const text = field.value;
      timer.current = setTimeout(() => search(text, false), SEARCH_DEBOUNCE_MS);
    };
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      search(field.value, true);
    };
    const onKey = (event: KeyboardEvent) => onKeyDown(event);
    field.addEventListener('input', onInput);
    form.addEventListener('submit', onSubmit);
    document.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer.current);
      field.removeEventListener('input', onInput);
      form.removeEventListener('submit', onSubmit);
      document.removeEventListener('keydown', onKey);
    };
  }, [inputId]);

  return null;
}
