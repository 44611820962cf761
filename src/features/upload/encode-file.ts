// Main-thread side of the encode worker: one worker per file, terminated when it is done or canceled.
import { runWorker } from '../../lib/run-worker.ts';
import type { EncodeMessage, EncodeRequest } from './encode-base64.ts';
import { SNIFF_BYTES, TAIL_BYTES } from './detect-format.ts';
import type { EncodeOptions } from './upload-queue.ts';
import { FileReadError } from './upload-errors.ts';

/** The file's padded standard base64 as a text Blob, encoded in a Web Worker. */
export function encodeFile(file: File, { signal, onProgress }: EncodeOptions): Promise<Blob> {
  return runWorker<EncodeMessage, Blob>(
    () => new Worker(new URL('./encode.worker.ts', import.meta.url), { type: 'module' }),
    { file } satisfies EncodeRequest,
    {
      name: 'the encoder',
      signal,
      onMessage: (message) => {
        if (message.type === 'progress') {
          onProgress(message.total === 0 ? 1 : message.loaded / message.total);
          return undefined;
        }
        if (message.type === 'done') return message.base64;
        throw new FileReadError(message.message);
      },
      onBroken: (message) => {
        throw new FileReadError(message);
      },
    },
  );
}

/** The last bytes of a file, enough for the truncation check. */
export async function readFileTail(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(Math.max(0, file.size - TAIL_BYTES)).arrayBuffer());
}

/** The first bytes of a file, enough for the format check. */
export async function readFileHead(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}
