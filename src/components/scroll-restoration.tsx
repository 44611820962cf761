import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** Scroll positions by history entry, for this page's lifetime. */
const positions = new Map<string, number>();

/**
 * A new page starts at the top; back and forward return to where the user was. A small stand-in
 * for React Router's `<ScrollRestoration>` (about 1 kB gzipped on the first screen).
 */
export function ScrollRestoration() {
  const { key } = useLocation();
  const navigationType = useNavigationType();
  // Mounted lazily after the first paint: on the page the app opened on (a POP), the user may
  // already have scrolled (e.g. with End); that is not a navigation to scroll for.
  const mounted = useRef(false);

  // Layout effects, in this order: the old entry stops recording before the new page scrolls.
  useLayoutEffect(() => {
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useLayoutEffect(() => {
    const first = !mounted.current;
    mounted.current = true;
    if (first && navigationType === 'POP') return;
    window.scrollTo(0, navigationType === 'POP' ? (positions.get(key) ?? 0) : 0);
  }, [key, navigationType]);

  return null;
}
