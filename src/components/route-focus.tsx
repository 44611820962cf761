import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

const FIELDS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

/**
 * Moves focus to `<main>` when the page (the path) changes, so keyboard and screen reader users
 * start at the new content, unless the new page took focus itself, a dialog holds it, or the user is
 * typing in a field (e.g. the search field, which navigates as you type).
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const main = document.getElementById('main');
    const active = document.activeElement;
    if (!main || (active && active !== document.body && main.contains(active))) return;
    if (active?.closest(`dialog[open], ${FIELDS}`)) return;
    main.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}
