// A webpage's original file (`GET /webpages/{id}/content`) as the server sent it, kept as a Blob so
// that the main thread never reads it: Folio's server sends the bytes themselves when asked
// (`Accept: application/octet-stream`, a Folio extension); HamsterBase ignores the header and sends
// its JSON envelope with the base64, which is read where the bytes are needed (the preview's worker,
// a download). No HTTP client here: the preview's worker imports this module.
import { decodeBase64 } from '../../shared/formats/bytes.ts';
import { BINARY_MHTML_TYPE, LINKED_MHTML_TYPE } from '../../shared/contract/media-types.ts';
import { envelopeData } from './errors.ts';

/** The Accept header of the request: the bytes if the server can, else its JSON envelope. */
export const ORIGINAL_FILE_ACCEPT = 'application/octet-stream, application/json;q=0.5';

/**
 * The Accept header of the preview's request: an MHTML page with its parts in binary where the
 * server offers it (the same archive to read, a quarter smaller and with nothing to decode), else
 * as the original.
 */
export const PREVIEW_FILE_ACCEPT = `${BINARY_MHTML_TYPE}, application/octet-stream;q=0.9, application/json;q=0.5`;

/**
 * The same, from an app that can show the page's large parts by link (its frame may load them:
 * the server is the app's own origin): linked MHTML first.
 */
export const LINKED_PREVIEW_FILE_ACCEPT = `${LINKED_MHTML_TYPE}, ${BINARY_MHTML_TYPE};q=0.95, application/octet-stream;q=0.9, application/json;q=0.5`;

export interface OriginalFile {
  /**
   * `bytes`: the file itself; `base64-json`: the `{success, data: "<base64>"}` envelope of it;
   * `binary-mhtml`: for the preview, an MHTML page with its parts in binary, which reads as the
   * same archive but is not the file; `linked-mhtml`: the same with its large parts as links.
   */
  encoding: 'bytes' | 'base64-json' | 'binary-mhtml' | 'linked-mhtml';
  blob: Blob;
  /** For `linked-mhtml`: where its parts' links live (`partLinksBase`). */
  partsBase?: string;
  /** For `linked-mhtml`: the links of its first images, to load ahead (`preloadedImageLinks`). */
  preload?: string[];
}

/** Which body a 2xx answer carries, from its media type. */
export function originalFileEncoding(contentType: string | null): OriginalFile['encoding'] {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/octet-stream') return 'bytes';
  if (type === LINKED_MHTML_TYPE) return 'linked-mhtml';
  return type === BINARY_MHTML_TYPE ? 'binary-mhtml' : 'base64-json';
}

/** Whether the answer gives the uploaded file byte for byte (what a download must save). */
export function isTheOriginal(file: OriginalFile): boolean {
  return file.encoding !== 'binary-mhtml' && file.encoding !== 'linked-mhtml';
}

/**
 * Where the links to a linked MHTML's parts live (`{base_url}/parts/`), for a server at
 * `serverRoot`, or `null` when a preview shown by the app at `appOrigin` cannot load them: the
 * frame's documents are the app's, under its CSP (`img-src 'self'`), so only a server of the same
 * origin can serve them. Also `null` for an address that a CSP source cannot name as it is.
 */
export function partLinksBase(serverRoot: string, appOrigin: string | undefined): string | null {
  let base: URL;
  try {
    base = new URL('parts/', serverRoot);
  } catch {
    return null;
  }
  if (base.origin !== appOrigin || base.search !== '' || base.hash !== '') return null;
  // A CSP source list is split at spaces, commas and semicolons; quotes end its keywords.
  return /^[A-Za-z0-9:/._~%+@!$&=-]+$/.test(base.href) ? base.href : null;
}

/**
 * The address of a linked part, from its `Folio-Part-Url` header, if it is a link under `base`
 * (`partLinksBase`) and writes into a document as it is (no quote, space, parenthesis or `&`).
 */
export function partLinkUrl(value: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(value, new URL('..', base));
  } catch {
    return null;
  }
  const parts = new URL(base);
  if (url.origin !== parts.origin || !url.pathname.startsWith(parts.pathname)) return null;
  if (url.search !== '' || url.hash !== '') return null;
  return /^[A-Za-z0-9:/._~%+-]+$/.test(url.href) ? url.href : null;
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
