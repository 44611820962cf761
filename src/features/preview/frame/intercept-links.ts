// The parent page's hold on the preview frame (reachable because the frame is same-origin, with
// scripts off): link activations are caught before the frame can navigate. http(s) links open in a
// new tab without opener or referrer, #fragment links scroll inside the frame, anything else does
// nothing. Dropping a link or a file on the frame (which would navigate it) is refused too.
import { safeHttpUrl } from '../../../lib/urls.ts';
import {
  contentDocument,
  firstElementNamed,
  framesOf,
  getAttribute,
  getAttributeNS,
  getElementById,
  isElement,
  localName,
  on,
  rootElement,
  scrollIntoView,
} from './archived-dom.ts';
import { forwardKeys } from './forward-keys.ts';

const XLINK = 'http://www.w3.org/1999/xlink';
/** How long to watch a frame for its document before its load event (the first frames painted). */
const WATCH_MS = 10_000;

export type OpenUrl = (url: string) => void;

export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

function linkHref(element: Element): string | null {
  const name = localName(element);
  if (name !== 'a' && name !== 'area') return null;
  return getAttribute(element, 'href') ?? getAttributeNS(element, XLINK, 'href');
}

/** The innermost link the event went through (shadow trees included) and its href. */
function findLink(event: Event): { href: string } | null {
  for (const target of event.composedPath()) {
    if (!isElement(target)) continue;
    const href = linkHref(target);
    if (href !== null) return { href };
  }
  return null;
}

export function scrollToFragment(doc: Document, fragment: string): void {
  let id = fragment;
  try {
    id = decodeURIComponent(fragment);
  } catch {
    // keep the fragment as written
  }
  const target = id ? (getElementById(doc, id) ?? firstElementNamed(doc, id)) : null;
  if (target) scrollIntoView(target);
  else if (id === '' || id.toLowerCase() === 'top') {
    const root = rootElement(doc);
    if (root) scrollIntoView(root);
  }
}

/** Installs the link policy on one document; returns the function that removes it. */
export function interceptLinks(doc: Document, open: OpenUrl = openInNewTab): () => void {
  const onActivate = (event: Event) => {
    // auxclick is the middle button (open in a new tab); the context menu stays the user's.
    if (event.type === 'auxclick' && (event as MouseEvent).button !== 1) return;
    const link = findLink(event);
    if (!link) return;
    event.preventDefault();
    const href = link.href.trim();
    if (href.startsWith('#')) {
      if (event.type === 'click') scrollToFragment(doc, href.slice(1));
      return;
    }
    const url = safeHttpUrl(href);
    if (url) open(url);
  };
  const refuse = (event: Event) => event.preventDefault();
  const removers = [
    on(doc, 'click', onActivate, true),
    on(doc, 'auxclick', onActivate, true),
    on(doc, 'dragover', refuse, true),
    on(doc, 'drop', refuse, true),
  ];
  return () => {
    for (const remove of removers) remove();
  };
}

const nextFrame: (callback: () => void) => number =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(callback)
    : (callback) => setTimeout(callback, 16) as unknown as number;
const cancelFrame: (handle: number) => void =
  typeof cancelAnimationFrame === 'function'
    ? (handle) => cancelAnimationFrame(handle)
    : (handle) => clearTimeout(handle);

export interface ProtectOptions {
  /**
   * Whether the preview may have shadow roots (the worker says so: it wrote every declarative
   * shadow root there is, and nothing else can make one without scripts). Frames inside them are
   * found only by visiting every element, which is done only then.
   */
  shadowRoots: boolean;
}

/**
 * Keeps the link policy on whatever document `iframe` shows, and on its nested frames, and hands
 * their key presses to the app (`forwardKeys`). The frame's
 * document is checked on every animation frame until it has loaded, so the policy is in place
 * before the page is first painted, hence before anything in it can be clicked.
 */
export function protectFrame(
  iframe: HTMLIFrameElement,
  open: OpenUrl = openInNewTab,
  options: ProtectOptions = { shadowRoots: true },
): () => void {
  const documents = new Map<Document, () => void>();
  const frames = new Map<HTMLIFrameElement, () => void>();
  const started = Date.now();
  let handle = 0;
  let watching = true;

  const protectNested = (nested: HTMLIFrameElement) => {
    if (!frames.has(nested)) frames.set(nested, protectFrame(nested, open, options));
  };
  const install = () => {
    const doc = contentDocument(iframe);
    if (!doc) return;
    if (!documents.has(doc)) {
      const removeLinks = interceptLinks(doc, open);
      // The app's keyboard shortcuts keep working while the page has focus.
      const removeKeys = forwardKeys(doc, iframe);
      // Content the app adds later (a long page's pieces, frame/append-pieces.ts) may hold frames:
      // they are protected when they are added, before the next paint (observers run then).
      const observer = new MutationObserver((records) => {
        for (const record of records) {
          const added = record.addedNodes;
          for (let index = 0; index < added.length; index++) {
            for (const nested of framesOf(doc, options.shadowRoots, added[index]!)) {
              protectNested(nested);
            }
          }
        }
      });
      observer.observe(doc, { childList: true, subtree: true });
      documents.set(doc, () => {
        observer.disconnect();
        removeLinks();
        removeKeys();
      });
    }
    for (const nested of framesOf(doc, options.shadowRoots)) protectNested(nested);
  };
  const tick = () => {
    install();
    if (watching && Date.now() - started < WATCH_MS) handle = nextFrame(tick);
  };
  const onLoad = () => {
    install();
    watching = false;
  };

  const removeOnLoad = on(iframe, 'load', onLoad, false);
  tick();
  return () => {
    watching = false;
    cancelFrame(handle);
    removeOnLoad();
    for (const remove of documents.values()) remove();
    for (const remove of frames.values()) remove();
  };
}
