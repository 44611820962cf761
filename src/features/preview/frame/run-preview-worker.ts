// Main-thread side of the preview worker: one worker per build, terminated when it answers, when
// the caller aborts (leaving a page stops a 16 MB parse at once), or when it runs past its time
// budget (a crafted file can make a parse run for minutes; the app must not wait for it). A
// terminated worker is gone with all its memory: the next preview starts a fresh one.
import { runWorker } from '../../../lib/run-worker.ts';
import { whenIdle } from '../../../lib/when-idle.ts';
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

/**
 * At most one worker started ahead of the preview that will use it: a worker takes a while to
 * come up (its script fetched and compiled, its thread started: 150–230 ms measured in the bench's
 * click), which can pass before the click (the library idle, a pointer resting on a row, the last
 * preview shown) or while the page's file downloads instead of after it. The worker waiting has
 * been given nothing: a preview still gets a fresh worker of its own, used once.
 */
export class WorkerInWaiting {
  private waiting: { worker: Worker; broken: boolean } | undefined;

  constructor(private readonly start: () => Worker) {}

  /** Starts a worker for the next `take`, unless one is waiting already. */
  warm(): void {
    if (this.waiting !== undefined) return;
    const waiting = { worker: this.start(), broken: false };
    // A worker whose script could not load says so before anyone listens: remembered here.
    waiting.worker.onerror = (event) => {
      event.preventDefault();
      waiting.broken = true;
    };
    this.waiting = waiting;
  }

  /** The worker waiting, or a new one (also in place of one that could not start). */
  take = (): Worker => {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting === undefined) return this.start();
    waiting.worker.onerror = null;
    if (!waiting.broken) return waiting.worker;
    waiting.worker.terminate();
    return this.start();
  };
}

const previewWorkers = new WorkerInWaiting(startPreviewWorker);

/**
 * Starts the next preview's worker now: called when a page's detail is asked for, beside its file.
 * Nothing where the browser has no workers.
 */
export function warmPreviewWorker(): void {
  if (typeof Worker === 'function') previewWorkers.warm();
}

/**
 * Starts the next preview's worker once the browser is idle: called when a preview is shown, for
 * the page read next (Previous / Next, another row). Returns the function that cancels it.
 */
export function warmPreviewWorkerWhenIdle(): () => void {
  return whenIdle(warmPreviewWorker);
}

export function runPreviewWorker(
  request: PreviewRequest,
  signal: AbortSignal,
  {
    start = previewWorkers.take,
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
