// A linked MHTML's images (the preview's file from Folio's server, `LINKED_MHTML_TYPE`) start
// loading as soon as the file is in, from the answer's `Link: <…>; rel=preload; as=image` header
// (the detail's loader, `preloadAhead`), or else with the preview's build: while the worker
// writes the document, the browser already fetches the images, which the frame then finds in its
// caches. Only links to the
// archive's own parts are followed (`partLinkUrl`); anything else in the header is ignored.
import { partLinkUrl } from './original-file.ts';

/** The most images preloaded for one answer (the server lists the page's first ones). */
export const MAX_PRELOADED_IMAGES = 24;

/** The part links a `Link` header asks to preload as images, resolved against `responseUrl`. */
export function preloadedImageLinks(
  header: string,
  responseUrl: string,
  partsBase: string,
): string[] {
  const links: string[] = [];
  for (const [, reference = '', rest = ''] of header.matchAll(/<([^<>]*)>([^,]*)/g)) {
    const params = rest
      .split(';')
      .map((param) => param.replace(/\s+/g, '').replace(/"/g, '').toLowerCase());
    if (!params.includes('rel=preload') || !params.includes('as=image')) continue;
    let absolute: string;
    try {
      absolute = new URL(reference, responseUrl).href;
    } catch {
      continue;
    }
    const link = partLinkUrl(absolute, partsBase);
    if (link !== null && !links.includes(link)) links.push(link);
    if (links.length === MAX_PRELOADED_IMAGES) break;
  }
  return links;
}

/**
 * How many images load at once: a browser opens at most six connections to a server over
 * HTTP/1.1, and the app's own requests (the preview's worker, the page's details) must not wait
 * behind the images.
 */
export const MAX_IMAGES_AT_ONCE = 3;

/** The images of one preview, cancelled when it goes away. */
interface Batch {
  cancelled: boolean;
}

/** An image to load, and the preview's batch it belongs to. */
interface Preload {
  link: string;
  batch: Batch;
}

/** Images waiting for their turn, and those loading (referenced until they load or fail). */
const waiting: Preload[] = [];
const loading = new Map<HTMLImageElement, Preload>();

function next(): void {
  while (loading.size < MAX_IMAGES_AT_ONCE && waiting.length > 0) {
    const preload = waiting.shift()!;
    if (preload.batch.cancelled) continue;
    const image = new Image();
    const done = () => {
      loading.delete(image);
      next();
    };
    image.addEventListener('load', done, { once: true });
    image.addEventListener('error', done, { once: true });
    loading.set(image, preload);
    image.src = preload.link;
  }
}

/**
 * Starts loading `links` (from `preloadedImageLinks`), a few at a time. The function it returns
 * cancels what has not loaded yet (the preview went away): those waiting never start, those
 * loading are let go.
 */
export function preloadImages(links: readonly string[]): () => void {
  const batch: Batch = { cancelled: false };
  waiting.push(...links.map((link) => ({ link, batch })));
  next();
  return () => {
    batch.cancelled = true;
    for (const [image, preload] of loading) {
      if (preload.batch !== batch) continue;
      loading.delete(image);
      // An empty source stops the load.
      image.removeAttribute('src');
    }
    next();
  };
}

/** Images started by the detail's loader, until the preview's build takes them. */
let ahead:
  | { links: readonly string[]; cancel: () => void; timer: ReturnType<typeof setTimeout> }
  | undefined;

/** How long images started ahead wait to be taken before they are stopped. */
export const TAKE_WITHIN_MS = 10_000;

/** Files' links a preview has taken: its loader running again (another search) starts none. */
const taken = new WeakSet<readonly string[]>();

function stopAhead(): void {
  if (ahead === undefined) return;
  const { cancel, timer } = ahead;
  ahead = undefined;
  clearTimeout(timer);
  cancel();
}

/**
 * Starts loading a file's `links` (its `preload`) now, before its preview's build (`takePreloads`
 * hands them to it): those started for another file are stopped, and so are these if nothing
 * takes them in `TAKE_WITHIN_MS`.
 */
export function preloadAhead(links: readonly string[] | undefined): void {
  if (links !== undefined && (ahead?.links === links || taken.has(links))) return;
  stopAhead();
  if (links === undefined || links.length === 0) return;
  ahead = { links, cancel: preloadImages(links), timer: setTimeout(stopAhead, TAKE_WITHIN_MS) };
}

/**
 * The loading of `links` (a file's `preload`; none for a file without), the caller's to cancel:
 * those started ahead for this file, else started now.
 */
export function takePreloads(links: readonly string[] | undefined): () => void {
  if (links === undefined) return () => {};
  taken.add(links);
  if (ahead?.links !== links) return preloadImages(links);
  const { cancel, timer } = ahead;
  ahead = undefined;
  clearTimeout(timer);
  return cancel;
}
