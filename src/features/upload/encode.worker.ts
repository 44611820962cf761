// The encode worker: one file in, its base64 (as a Blob) out, with progress messages in between.
// Started by `encode-file.ts`, one worker per file, terminated when done or canceled.
import { encodeBlobAsBase64 } from './encode-base64.ts';
import type { EncodeMessage, EncodeRequest } from './encode-base64.ts';

// The app's TypeScript lib is DOM, not WebWorker: describe the part of the worker scope used here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EncodeRequest>) => void) | null;
  postMessage(message: EncodeMessage): void;
};

scope.onmessage = (event) => {
  const { file } = event.data;
  void encodeBlobAsBase64(file, (loaded, total) => {
    scope.postMessage({ type: 'progress', loaded, total });
  }).then(
    (base64) => scope.postMessage({ type: 'done', base64 }),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      scope.postMessage({ type: 'error', message });
    },
  );
};
