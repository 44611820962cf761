import { createHash } from 'node:crypto';
import { decodeBase64Strict, decodedLength } from './base64.ts';
import { badRequest, ParseFailureError, payloadTooLarge } from './http/errors.ts';
import { hostOf, parseHttpLink } from './links.ts';
import { ParseError } from './parse/parse-error.ts';
import { parseWebpage } from './parse/parse-webpage.ts';
import type { WebpageExt } from './store/records.ts';
import type { Store } from './store/store.ts';

export interface UploadRequest {
  /** The file, standard base64. */
  content: string;
  ext: WebpageExt;
  title?: string;
  link?: string;
}

export interface UploadOptions {
  maxUploadBytes: number;
  now: number;
}

export const INVALID_LINK = 'link is invalid: it must be an absolute http or https URL';

/**
 * Stores an uploaded file and returns its id (sha256 hex of the bytes). Known bytes return the
 * existing page (restored if it was deleted; the request's title and link are ignored). New bytes
 * are parsed (ParseFailureError when they cannot be), written to the blob store, then recorded.
 */
export async function storeUpload(
  store: Store,
  upload: UploadRequest,
  options: UploadOptions,
): Promise<string> {
  const requestLink = upload.link === undefined ? undefined : parseHttpLink(upload.link);
  if (upload.link !== undefined && requestLink === undefined) throw badRequest(INVALID_LINK);
  if (upload.content.length % 4 === 0 && decodedLength(upload.content) > options.maxUploadBytes) {
    throw tooLarge(options.maxUploadBytes);
  }
  const bytes = decodeBase64Strict(upload.content);
  if (bytes === undefined) throw new ParseFailureError('content is not valid base64');
  if (bytes.length > options.maxUploadBytes) throw tooLarge(options.maxUploadBytes);
  if (bytes.length === 0) throw new ParseFailureError('the file is empty');
  const id = createHash('sha256').update(bytes).digest('hex');

  if (reuseExisting(store, id, options.now)) return id;

  const parsed = parse(bytes, upload.ext);
  const link = requestLink?.link ?? parsed.link;
  await store.blobs.put(id, bytes);
  const inserted = store.webpages.insert(
    {
      id,
      title: upload.title ?? parsed.title,
      excerpt: parsed.excerpt,
      link,
      host: requestLink?.host ?? hostOf(link),
      ext: upload.ext,
      size: bytes.length,
      createTime: parsed.createTime ?? options.now,
      text: parsed.text,
    },
    options.now,
  );
  // Inserted by a concurrent upload of the same bytes in the meantime: same as a re-upload.
  if (!inserted) reuseExisting(store, id, options.now);
  return id;
}

/** True when the page exists; a deleted one is restored with its metadata. */
function reuseExisting(store: Store, id: string, now: number): boolean {
  const existing = store.webpages.find(id);
  if (existing === undefined) return false;
  if (existing.deleted) store.webpages.restore(id, now);
  return true;
}

function parse(bytes: Uint8Array, ext: WebpageExt) {
  try {
    return parseWebpage(bytes, ext);
  } catch (error) {
    if (error instanceof ParseError) throw new ParseFailureError(error.reason, { cause: error });
    throw error;
  }
}

function tooLarge(maxBytes: number) {
  const megabytes = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
  return payloadTooLarge(`the file is larger than the server accepts (${megabytes} MB)`);
}

/** The JSON body limit of an upload: base64 is 4/3 of the file, plus room for the other fields. */
export function uploadBodyLimit(maxUploadBytes: number): number {
  return Math.ceil(maxUploadBytes / 3) * 4 + 128 * 1024;
}
