// Main-thread side of the preview worker: one worker per build, terminated when it answers or when
// the caller aborts (leaving a page stops a 16 MB parse at once).
import type { PreviewRequest, PreviewResponse } from '../build/build-preview.ts';

export function runPreviewWorker(
  request: PreviewRequest,
  signal: AbortSignal,
): Promise<PreviewResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const worker = new Worker(new URL('../preview.worker.ts', import.meta.url), { type: 'module' });
    const finish = () => {
      worker.terminate();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<PreviewResponse>) => {
      finish();
      resolve(event.data);
    };
    worker.onmessageerror = () => {
      finish();
      resolve({ ok: false, message: 'the preview worker sent an unreadable message' });
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      resolve({ ok: false, message: event.message || 'the preview worker could not start' });
    };
    worker.postMessage(request);
  });
}
