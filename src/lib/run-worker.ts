// The main-thread side of a one-shot Web Worker: the worker is started for one request and
// terminated when it answers, when it fails, or when the caller aborts (leaving a page stops a long
// parse at once).

export interface RunWorkerOptions<Message, Result> {
  /** Names the worker in failure messages, e.g. "the encoder". */
  name: string;
  signal: AbortSignal;
  /** One message: the result, or `undefined` to wait for the next one (progress); throw to fail. */
  onMessage: (message: Message) => Result | undefined;
  /**
   * What a broken worker amounts to: one that could not start (or threw), or sent a message that
   * could not be read. Given a message that says so; returns the result, or throws to fail.
   */
  onBroken: (message: string) => Result;
  /**
   * The most time the worker may take, in milliseconds, from its start: past it, the worker is
   * terminated and the run settles with `onTimeout()`. No limit when absent.
   */
  timeoutMs?: number;
  onTimeout?: () => Result;
}

/**
 * Posts `request` to the worker that `start` creates and settles with what the options make of its
 * answer. `start` stays with the caller, as `new Worker(new URL('./x.worker.ts', import.meta.url))`,
 * which is how the bundler finds the worker.
 */
export function runWorker<Message, Result>(
  start: () => Worker,
  request: unknown,
  { name, signal, onMessage, onBroken, timeoutMs, onTimeout }: RunWorkerOptions<Message, Result>,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const worker = start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      worker.terminate();
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal.reason);
    };
    /** Ends the run with what `answer` returns or throws; `undefined` keeps it running. */
    const settle = (answer: () => Result | undefined) => {
      let result: Result | undefined;
      try {
        result = answer();
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      if (result === undefined) return;
      finish();
      resolve(result);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<Message>) => settle(() => onMessage(event.data));
    worker.onmessageerror = () => settle(() => onBroken(`${name} sent an unreadable message`));
    worker.onerror = (event) => {
      event.preventDefault();
      settle(() => onBroken(event.message || `${name} could not start`));
    };
    if (timeoutMs !== undefined) {
      timer = setTimeout(
        () =>
          settle(() => {
            if (onTimeout) return onTimeout();
            throw new Error(`${name} took longer than ${timeoutMs} ms`);
          }),
        timeoutMs,
      );
    }
    worker.postMessage(request);
  });
}
