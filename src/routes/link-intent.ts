import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';

import { rowTitleLink } from '../components/webpage-row.tsx';
import { webpageOptions } from '../features/webpages/api/get-webpage.ts';
import { listWebpagesOptions } from '../features/webpages/api/list-webpages.ts';
import { parseListSearch } from '../features/webpages/filters.ts';
import { routePatterns } from '../lib/paths.ts';
import { whenIdle } from '../lib/when-idle.ts';
import { loadWebpageRoute } from './load-webpage-route.ts';

/** How long the pointer (or the focus) rests on a link before what it leads to is prefetched. */
export const INTENT_DELAY_MS = 100;

/**
 * The detail's code, and the preview's with its worker started: the click then waits for neither.
 * A chunk that fails to load now is asked for again by the navigation, which reports it.
 */
function warmWebpageRoute(): void {
  loadWebpageRoute().then(
    (route) => route.preloadPreview(),
    () => {},
  );
}

/**
 * Prefetches what the route at `url` loads first, with the same query options as its loader: a
 * webpage's metadata (and the detail route's code; not the original file, which can be large) or
 * a page of the library. Other routes are left alone (a view's webpages can be a large answer).
 * Fresh data is not fetched again (the queries' `staleTime`).
 */
export function prefetchUrl(queryClient: QueryClient, url: URL): void {
  const webpage = matchPath(routePatterns.webpage, url.pathname);
  if (webpage?.params.id) {
    warmWebpageRoute();
    void queryClient.prefetchQuery(webpageOptions(webpage.params.id));
  } else if (matchPath(routePatterns.home, url.pathname)) {
    void queryClient.prefetchQuery(listWebpagesOptions(parseListSearch(url.searchParams)));
  }
}

/**
 * The in-app link that `target` shows an intent to follow: the link itself or, anywhere else in
 * a webpage row, the row's title (its detail).
 */
function intentLink(target: EventTarget | null): HTMLAnchorElement | null {
  if (!(target instanceof Element)) return null;
  const link = target.closest('a[href]') ?? rowTitleLink(target);
  if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download')) {
    return null;
  }
  return link.origin === window.location.origin ? link : null;
}

/**
 * Prefetches what a link leads to while the user is about to follow it: the pointer or the focus
 * rests on it (or on a webpage row) for `INTENT_DELAY_MS`, e.g. a webpage's detail from its row
 * or the next list page from the pager. The navigation then finds the data in the cache. One set
 * of listeners on the document for the whole app; rows that only pass under a resting pointer
 * while a list scrolls are not prefetched. Returns the function that removes the listeners.
 */
export function listenForLinkIntent(queryClient: QueryClient): () => void {
  let current: HTMLAnchorElement | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = (target: EventTarget | null) => {
    const link = intentLink(target);
    if (link === current) return;
    clearTimeout(timer);
    current = link;
    if (!link) return;
    const url = new URL(link.href);
    timer = setTimeout(() => prefetchUrl(queryClient, url), INTENT_DELAY_MS);
  };
  const over = (event: Event) => follow(event.target);
  // The pointer leaving the window, or the focus leaving the page: no intent any more.
  const out = (event: Event) => {
    if ((event as FocusEvent | PointerEvent).relatedTarget === null) follow(null);
  };
  document.addEventListener('pointerover', over, { passive: true });
  document.addEventListener('pointerout', out, { passive: true });
  document.addEventListener('focusin', over);
  document.addEventListener('focusout', out);
  return () => {
    clearTimeout(timer);
    document.removeEventListener('pointerover', over);
    document.removeEventListener('pointerout', out);
    document.removeEventListener('focusin', over);
    document.removeEventListener('focusout', out);
  };
}

/** How long the warm-up waits at most for the browser to be idle. */
const WARM_UP_TIMEOUT_MS = 3000;

/**
 * Loads the code of a webpage's detail and of its preview once the browser is idle after the app
 * started (not its data), and starts the preview's worker: the click that opens a page then waits
 * for no script, and the preview's build for no worker to come up. A click comes too soon after
 * the pointer arrives for the intent above (a first click, a keyboard user's Enter), and without
 * this it waited for the route's dozen modules (170-330 ms measured in Chromium) before the
 * original file was even asked for. Returns the function that cancels it.
 */
export function warmDetailRoute(): () => void {
  return whenIdle(warmWebpageRoute, WARM_UP_TIMEOUT_MS);
}
