// A preview's build started by the detail route's loader as soon as the page's file and kind are
// known, instead of once the detail has rendered (150–250 ms later in the bench's click, the
// route rendering in slices meanwhile): the preview's hook adopts it (`usePreviewDocument`). At
// most one build waits to be adopted; one that nobody adopts in time is stopped, its worker
// terminated, as when a preview goes away.
import type { OriginalFile } from '../../../api/original-file.ts';
import { takePreloads } from '../../../api/preload-part-links.ts';
import type { PreviewExt, PreviewFirstPart, PreviewResponse } from '../document/build-preview.ts';
import { thisReservedMemberNames } from '../document/document-members.ts';
import { runPreviewWorker, type OnFirstPart } from '../frame/run-preview-worker.ts';

/** How long a build started ahead waits for its preview before it is stopped. */
export const ADOPT_WITHIN_MS = 10_000;

/** A build in progress, as its adopter takes it over. */
export interface AdoptedBuild {
  response: Promise<PreviewResponse>;
  /** Stops loading the page's images ahead (the preview went away). */
  cancelPreloads: () => void;
}

interface Waiting extends AdoptedBuild {
  file: OriginalFile;
  ext: PreviewExt;
  controller: AbortController;
  /** A long page's first part, if it came before the build was adopted. */
  firstPart: PreviewFirstPart | null;
  /** The adopter's, once adopted. */
  onFirstPart: OnFirstPart | null;
  timer: ReturnType<typeof setTimeout>;
}

let waiting: Waiting | undefined;

/**
 * Files whose preview a hook shows (built by it, or adopted): none is built ahead for them again
 * (the loader of the page shown runs again for another search, a hook builds only once per file).
 */
const shownByHooks = new WeakMap<OriginalFile, number>();

/** Says that a hook shows `file`'s preview, until the function it returns is called. */
export function notePreviewShown(file: OriginalFile): () => void {
  shownByHooks.set(file, (shownByHooks.get(file) ?? 0) + 1);
  return () => {
    const left = (shownByHooks.get(file) ?? 1) - 1;
    if (left > 0) shownByHooks.set(file, left);
    else shownByHooks.delete(file);
  };
}

function stopWaiting(): void {
  if (waiting === undefined) return;
  const { controller, cancelPreloads, timer } = waiting;
  waiting = undefined;
  clearTimeout(timer);
  controller.abort(new DOMException('the preview was not shown', 'AbortError'));
  cancelPreloads();
}

/**
 * Starts building the preview of `file` as `ext`, for the hook that will show it; a build that
 * waited for another file is stopped. Nothing when this one waits already, or when a hook shows
 * it already.
 */
export function buildPreviewAhead(
  file: OriginalFile,
  ext: PreviewExt,
  build: typeof runPreviewWorker = runPreviewWorker,
): void {
  if ((waiting?.file === file && waiting.ext === ext) || shownByHooks.has(file)) return;
  stopWaiting();
  const controller = new AbortController();
  const parts: Pick<Waiting, 'firstPart' | 'onFirstPart'> = { firstPart: null, onFirstPart: null };
  const response = build(
    { file, ext, reservedNames: thisReservedMemberNames() },
    controller.signal,
    {
      onFirstPart: (first) => {
        if (parts.onFirstPart) parts.onFirstPart(first);
        else parts.firstPart = first;
      },
    },
  );
  // Its failure, or its stop, is the adopter's to see; unadopted, nobody's.
  response.catch(() => {});
  const ahead: Waiting = Object.assign(parts, {
    file,
    ext,
    controller,
    response,
    // Started by the loader already (`preloadAhead`), else now, after the build: the worker's
    // script must not wait behind the images.
    cancelPreloads: takePreloads(file.preload),
    timer: setTimeout(stopWaiting, ADOPT_WITHIN_MS),
  });
  waiting = ahead;
}

/**
 * The build started ahead for `file` as `ext`, now the caller's: stopped when `signal` aborts,
 * its first part (a long page's) given to `onFirstPart`, at once if it came already. `undefined`
 * when none waits for this file.
 */
export function adoptPreviewBuild(
  file: OriginalFile,
  ext: PreviewExt,
  signal: AbortSignal,
  onFirstPart: OnFirstPart,
): AdoptedBuild | undefined {
  const ahead = waiting;
  if (ahead === undefined || ahead.file !== file || ahead.ext !== ext) return undefined;
  waiting = undefined;
  clearTimeout(ahead.timer);
  signal.addEventListener('abort', () => ahead.controller.abort(signal.reason), { once: true });
  ahead.onFirstPart = onFirstPart;
  if (ahead.firstPart !== null) onFirstPart(ahead.firstPart);
  return { response: ahead.response, cancelPreloads: ahead.cancelPreloads };
}
