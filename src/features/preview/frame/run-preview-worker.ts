// Main-thread side of the preview worker: one worker per build, terminated when it answers, when
// the caller aborts (leaving a page stops a 16 MB parse at once), or when it runs past its time
// budget (a crafted file can make a parse run for minutes; the app must not wait for it). A
// terminated worker is gone with all its memory: the next preview starts a fresh one.
import { runWorker } from '../../../lib/run-worker.ts';
import { originalFileMaxBytes } from '../../../api/original-file.ts';
import { isInputTooLarge, MAX_PREVIEW_INPUT_BYTES } from '../document/budgets.ts';
import type {
  PreviewFirstPart,
  PreviewMessage,
  PreviewRequest,
  PreviewResponse,
} from '../document/build-preview.ts';

/** How long one preview may take in the worker (decoding, parsing, rebuilding), in milliseconds. */
export const PREVIEW_TIME_BUDGET_MS = 20_000;

/**
 * A debug setting, for tests and for trying the "too complex" state by hand: a number of
 * milliseconds in this localStorage key lowers the time budget (it can never raise it).
 */
export const PREVIEW_BUDGET_DEBUG_KEY = 'folio.debug.previewTimeBudgetMs';

/** The time budget in force: `PREVIEW_TIME_BUDGET_MS`, or less when the debug key says so. */
export function previewTimeBudgetMs(): number {
  let stored: string | null = null;
  try {
    stored = globalThis.localStorage?.getItem(PREVIEW_BUDGET_DEBUG_KEY) ?? null;
  } catch {
    // Storage can be unavailable (privacy settings); the default applies.
  }
  const value = stored === null ? NaN : Number(stored);
  return Number.isInteger(value) && value >= 1 && value < PREVIEW_TIME_BUDGET_MS
    ? value
    : PREVIEW_TIME_BUDGET_MS;
}

export interface PreviewWorkerOptions {
  /** Starts the worker; the real preview worker by default (tests pass a stand-in). */
  start?: () => Worker;
  /** The time budget; `previewTimeBudgetMs()` by default. */
  budgetMs?: number;
  /** Told a long page's first part, which comes before the answer (`PreviewFirstPart`). */
  onFirstPart?: OnFirstPart;
}

export type OnFirstPart = (first: PreviewFirstPart) => void;

const startPreviewWorker = () =>
  new Worker(new URL('../preview.worker.ts', import.meta.url), { type: 'module' });

export function runPreviewWorker(
  request: PreviewRequest,
  signal: AbortSignal,
  {
    start = startPreviewWorker,
    budgetMs = previewTimeBudgetMs(),
    onFirstPart,
  }: PreviewWorkerOptions = {},
): Promise<PreviewResponse> {
  // Not even copied to a worker.
  if (isInputTooLarge(originalFileMaxBytes(request.file))) {
    return Promise.resolve({
      ok: false,
      failure: 'too-complex',
      message: `the file is larger than ${MAX_PREVIEW_INPUT_BYTES} bytes`,
    });
  }
  return runWorker<PreviewMessage, PreviewResponse>(start, request, {
    name: 'the preview worker',
    signal,
    onMessage: (message) => {
      if (!('first' in message)) return message;
      onFirstPart?.(message);
      return undefined;
    },
    onBroken: (message) => ({ ok: false, failure: 'unreadable', message }),
    timeoutMs: budgetMs,
    onTimeout: () => ({
      ok: false,
      failure: 'too-complex',
      message: `the preview took longer than ${budgetMs / 1000} s`,
    }),
  });
}
