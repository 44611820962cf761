// Main-thread side of the preview worker: one worker per build, terminated when it answers or when
// the caller aborts (leaving a page stops a 16 MB parse at once).
import { runWorker } from '../../../lib/run-worker.ts';
import type { PreviewRequest, PreviewResponse } from '../build/build-preview.ts';

export function runPreviewWorker(
  request: PreviewRequest,
  signal: AbortSignal,
): Promise<PreviewResponse> {
  return runWorker<PreviewResponse, PreviewResponse>(
    () => new Worker(new URL('../preview.worker.ts', import.meta.url), { type: 'module' }),
    request,
    {
      name: 'the preview worker',
      signal,
      onMessage: (response) => response,
      onBroken: (message) => ({ ok: false, message }),
    },
  );
}
