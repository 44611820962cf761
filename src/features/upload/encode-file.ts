// Main-thread side of the encode worker: one worker per file, terminated when it is done or canceled.
import type { EncodeMessage, EncodeRequest } from './encode-base64.ts';
import { SNIFF_BYTES } from './detect-format.ts';
import type { EncodeOptions } from './upload-queue.ts';
import { FileReadError } from './upload-errors.ts';

/** The file's padded standard base64 as a text Blob, encoded in a Web Worker. */
export function encodeFile(file: File, { signal, onProgress }: EncodeOptions): Promise<Blob> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const worker = new Worker(new URL('./encode.worker.ts', import.meta.url), { type: 'module' });
    const finish = () => {
      worker.terminate();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<EncodeMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        onProgress(message.total === 0 ? 1 : message.loaded / message.total);
      } else if (message.type === 'done') {
        finish();
        resolve(message.base64);
      } else {
        finish();
        reject(new FileReadError(message.message));
      }
    };
    worker.onmessageerror = () => {
      finish();
      reject(new FileReadError('the encoder sent an unreadable message'));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new FileReadError(event.message || 'the encoder could not start'));
    };
    worker.postMessage({ file } satisfies EncodeRequest);
  });
}

/** The first bytes of a file, enough for the format check. */
export async function readFileHead(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}
