// Base64 of a whole file, chunk by chunk, with progress. Runs in the encode worker; pure enough to
// test anywhere Blob works.
import { encodeBase64 } from '../../../shared/formats/bytes.ts';

/** Bytes read and encoded per step: a multiple of 3, so the chunks' base64 concatenates cleanly. */
export const ENCODE_CHUNK_BYTES = 3 * 1024 * 1024;

/** Main thread → worker. */
export interface EncodeRequest {
  readonly file: Blob;
}

/** Worker → main thread. */
export type EncodeMessage =
  | { readonly type: 'progress'; readonly loaded: number; readonly total: number }
  | { readonly type: 'done'; readonly base64: Blob }
  | { readonly type: 'error'; readonly message: string };

/**
 * Reads `file` in `chunkBytes` slices and returns its padded standard base64 as a text Blob. The
 * result is a Blob, not a string: it moves between threads without a copy and becomes part of the
 * request body without ever being one huge string. `onProgress` gets the bytes done after each
 * slice.
 */
export async function encodeBlobAsBase64(
  file: Blob,
  onProgress: (loaded: number, total: number) => void,
  chunkBytes: number = ENCODE_CHUNK_BYTES,
): Promise<Blob> {
  if (chunkBytes <= 0 || chunkBytes % 3 !== 0) {
    throw new RangeError('chunkBytes must be a positive multiple of 3');
  }
  const total = file.size;
  const parts: Blob[] = [];
  for (let start = 0; start < total; start += chunkBytes) {
    const end = Math.min(total, start + chunkBytes);
    const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer());
    // Wrapping each chunk in a Blob lets the engine drop the string as soon as it is stored.
    parts.push(new Blob([encodeBase64(bytes)]));
    onProgress(end, total);
  }
  return new Blob(parts, { type: 'text/plain' });
}
