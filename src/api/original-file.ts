// A webpage's original file (`GET /webpages/{id}/content`) as the server sent it, kept as a Blob so
// that the main thread never reads it: Folio's server sends the bytes themselves when asked
// (`Accept: application/octet-stream`, a Folio extension); HamsterBase ignores the header and sends
// its JSON envelope with the base64, which is read where the bytes are needed (the preview's worker,
// a download). No HTTP client here: the preview's worker imports this module.
import { decodeBase64 } from '../../shared/formats/bytes.ts';
import { BINARY_MHTML_TYPE } from '../../shared/contract/media-types.ts';
import { envelopeData } from './errors.ts';

/** The Accept header of the request: the bytes if the server can, else its JSON envelope. */
export const ORIGINAL_FILE_ACCEPT = 'application/octet-stream, application/json;q=0.5';

/**
 * The Accept header of the preview's request: an MHTML page with its parts in binary where the
 * server offers it (the same archive to read, a quarter smaller and with nothing to decode), else
 * as the original.
 */
export const PREVIEW_FILE_ACCEPT = `${BINARY_MHTML_TYPE}, application/octet-stream;q=0.9, application/json;q=0.5`;

export interface OriginalFile {
  /**
   * `bytes`: the file itself; `base64-json`: the `{success, data: "<base64>"}` envelope of it;
   * `binary-mhtml`: for the preview, an MHTML page with its parts in binary, which reads as the
   * same archive but is not the file.
   */
  encoding: 'bytes' | 'base64-json' | 'binary-mhtml';
  blob: Blob;
}

/** Which body a 2xx answer carries, from its media type. */
export function originalFileEncoding(contentType: string | null): OriginalFile['encoding'] {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/octet-stream') return 'bytes';
  return type === BINARY_MHTML_TYPE ? 'binary-mhtml' : 'base64-json';
}

/** Whether the answer gives the uploaded file byte for byte (what a download must save). */
export function isTheOriginal(file: OriginalFile): boolean {
  return file.encoding !== 'binary-mhtml';
}

/** How many bytes the file has at most (a base64 envelope is a third larger than its file). */
export function originalFileMaxBytes(file: OriginalFile): number {
  return file.encoding === 'base64-json' ? Math.floor((file.blob.size * 3) / 4) : file.blob.size;
}

/** The file's bytes (throws the ApiError of `unwrap` for an envelope that is not a success). */
export async function readOriginalFile(file: OriginalFile): Promise<Uint8Array<ArrayBuffer>> {
  if (file.encoding !== 'base64-json') return new Uint8Array(await file.blob.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(await file.blob.text());
  } catch (error) {
    throw new SyntaxError('The server answered with something that is not JSON', {
      cause: error,
    });
  }
  const data = envelopeData(body);
  if (typeof data !== 'string') throw new TypeError('The server sent no base64 text for the file');
  return decodeBase64(data) as Uint8Array<ArrayBuffer>;
}
