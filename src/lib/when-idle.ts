// Work nobody waits for, done once the browser is idle (`requestIdleCallback`), so that it never
// delays what the user is waiting for: a route's code loaded ahead, a worker started ahead.

/** Where the browser has no idle callbacks: this long after the call. */
const WITHOUT_IDLE_CALLBACKS_MS = 1000;

/**
 * Runs `run` once the browser is idle, or after `timeoutMs` at the latest when it is given.
 * Returns the function that cancels it.
 */
export function whenIdle(run: () => void, timeoutMs?: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(
      () => run(),
      timeoutMs === undefined ? undefined : { timeout: timeoutMs },
    );
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, timeoutMs ?? WITHOUT_IDLE_CALLBACKS_MS);
  return () => clearTimeout(timer);
}
