// The preview's bounds on one archive, beside the build's own (frame depth, count and size, in
// build-document.ts) and the worker's time budget (frame/run-preview-worker.ts). A browser cannot
// cap a worker's memory, so memory is bounded by what goes in: the input's size and the number of
// entries a webarchive unfolds into. Going past one is "too complex to preview", not an error of
// the file: the original can still be downloaded.
import { isBplist, parseBplist, type PlistValue } from '../../../../shared/formats/bplist.ts';

/** The largest archive the preview decodes (the server accepts bigger uploads). */
export const MAX_PREVIEW_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * How many resources and frames a webarchive may unfold into. A binary plist can reference one
 * subframe archive many times: 24 levels of two references to the same frame are 2^24 frames in
 * 1.4 kB, which a reader that follows every reference builds one by one.
 */
export const MAX_WEBARCHIVE_ENTRIES = 20_000;

/** Thrown when an archive is past one of the preview's bounds. */
export class TooComplexError extends Error {
  override name = 'TooComplexError';
}

/** Whether a file of this many bytes is past `MAX_PREVIEW_INPUT_BYTES`. */
export function isInputTooLarge(bytes: number, max = MAX_PREVIEW_INPUT_BYTES): boolean {
  return bytes > max;
}

/**
 * How many entries (frames and subresources, the main resources included) the webarchive plist
 * `root` unfolds into, counting a shared subframe once per reference, up to `limit + 1`. Walks
 * the plist's object graph once: shared objects are counted from a memo, not walked again.
 */
export function unfoldedWebarchiveEntries(root: PlistValue, limit: number): number {
  const memo = new Map<object, number>();
  // The plist reader refuses reference cycles and nests at most 512 deep: recursion is bounded.
  const count = (frame: PlistValue | undefined): number => {
    if (!(frame instanceof Map)) return 0;
    const known = memo.get(frame);
    if (known !== undefined) return known;
    let total = 1;
    const subresources = frame.get('WebSubresources');
    if (Array.isArray(subresources)) total += subresources.length;
    const subframes = frame.get('WebSubframeArchives');
    if (Array.isArray(subframes)) {
      for (const subframe of subframes) {
        if (total > limit) break;
        total += count(subframe);
      }
    }
    total = Math.min(total, limit + 1);
    memo.set(frame, total);
    return total;
  };
  return count(root);
}

/** Throws `TooComplexError` when the (binary) webarchive unfolds past `MAX_WEBARCHIVE_ENTRIES`. */
export function checkWebarchiveSize(bytes: Uint8Array, limit = MAX_WEBARCHIVE_ENTRIES): void {
  // An XML plist has no shared references: what it unfolds into is bounded by its size.
  if (!isBplist(bytes)) return;
  if (unfoldedWebarchiveEntries(parseBplist(bytes), limit) > limit) {
    throw new TooComplexError(
      `the webarchive unfolds into more than ${limit} frames and resources`,
    );
  }
}
