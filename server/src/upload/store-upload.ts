// The steps of an upload after its body (body-parser.ts): the checks on what the streaming decoder
// found, the parse in a worker of the pool, the move of the file into the blob store, the record.
import { ApiError, badRequest, ParseFailureError, payloadTooLarge } from '../http/errors.ts';
import { hostOf, parseHttpLink, type ParsedLink } from '../links.ts';
import { ParseError } from '../parse/parse-error.ts';
import { ParseLimitError, parsePool, ParseWorkerError } from '../parse/parse-pool.ts';
import type { ParsedWebpage } from '../parse/parse-webpage.ts';
import { StagedBytes } from '../store/blobs.ts';
import type { WebpageExt } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { NewWebpage } from '../store/webpages.ts';
import type { ReceivedContent } from './body-parser.ts';
import { LINK_INVALID } from './hamsterbase-messages.ts';

/** An upload whose `content` was decoded into a temp file as it arrived. */
export interface UploadRequest {
  content: ReceivedContent;
  ext: WebpageExt;
  title?: string;
  link?: string;
}

export interface UploadOptions {
  maxUploadBytes: number;
  now: number;
  /** A parse running longer is stopped, and the upload answered E0001 (ms). */
  parseTimeoutMs: number;
}

/** HamsterBase's message for a link that is not an absolute http(s) URL. */
export const INVALID_LINK = LINK_INVALID;

/**
 * Stores an uploaded file and returns its id (sha256 hex of the bytes). Known bytes return the
 * existing page (restored if it was deleted; the request's title and link are ignored). New bytes
 * are parsed in a worker thread (ParseFailureError when they cannot be, or when the parse goes
 * past its limits) and stored in the blob store (a small file while it is parsed, removed again if
 * the parse fails), then recorded with the other uploads ready at the same time (group commit: one
 * transaction). The temp file is moved or removed.
 */
export async function storeUpload(
  store: Store,
  upload: UploadRequest,
  options: UploadOptions,
): Promise<string> {
  const { summary, sha256, file } = upload.content;
  try {
    const requestLink = upload.link === undefined ? undefined : parseHttpLink(upload.link);
    if (upload.link !== undefined && requestLink === undefined) throw badRequest(INVALID_LINK);
    if (summary.length % 4 === 0 && summary.decodedLength > options.maxUploadBytes) {
      throw tooLarge(options.maxUploadBytes);
    }
    if (!summary.valid) throw new ParseFailureError('content is not valid base64');
    if (summary.overflow || summary.bytes > options.maxUploadBytes) {
      throw tooLarge(options.maxUploadBytes);
    }
    if (summary.bytes === 0) throw new ParseFailureError('the file is empty');
    if (sha256 === undefined) throw new Error('a valid received upload has no hash');
    const id = sha256;

    if (reuseExisting(store, id, options.now)) return id;

    const page = parsing(
      parsePool.parseStaged(file instanceof StagedBytes ? file.bytes : file.path, upload.ext, {
        timeoutMs: options.parseTimeoutMs,
      }),
    ).then((parsed) => newPage(id, summary.bytes, parsed, upload, requestLink, options.now));
    // Recorded with the other uploads ready meanwhile (group commit); durable once it resolves.
    if (file instanceof StagedBytes) {
      // The parse has its copy of the bytes: the file is written meanwhile.
      await store.ingest.addHeld(file, id, page, options.now);
    } else {
      await store.ingest.add(file, await page, options.now);
    }
    return id;
  } finally {
    // Not awaited: nothing may come between the page's last change and the answer read from the
    // database (a concurrent delete would slip in). The upload route's onSend hook awaits the
    // removal before answering.
    void file.discard().catch(() => undefined);
  }
}

/** The record of a parsed page: the request's title and link before the file's. */
function newPage(
  id: string,
  size: number,
  parsed: ParsedWebpage,
  upload: { ext: WebpageExt; title?: string },
  requestLink: ParsedLink | undefined,
  now: number,
): NewWebpage {
  const link = requestLink?.link ?? parsed.link;
  return {
    id,
    title: upload.title ?? parsed.title,
    excerpt: parsed.excerpt,
    link,
    host: requestLink?.host ?? hostOf(link),
    ext: upload.ext,
    size,
    createTime: parsed.createTime ?? now,
    text: parsed.text,
    ...(parsed.partIndex === undefined ? {} : { partIndex: parsed.partIndex }),
  };
}

/** True when the page exists; a deleted one is restored with its metadata. */
function reuseExisting(store: Store, id: string, now: number): boolean {
  const existing = store.webpages.find(id);
  if (existing === undefined) return false;
  if (existing.deleted) store.webpages.restore(id, now);
  return true;
}

/**
 * A parse in the pool's worker, with the upload's answers: E0001 (ParseFailureError) for a file
 * that is not of its kind or that is too complex to read within the parser's limits (time, heap),
 * a 500 that says why for a parse that did not finish otherwise (its worker crashed).
 */
async function parsing<T>(parse: Promise<T>): Promise<T> {
  try {
    return await parse;
  } catch (error) {
    if (error instanceof ParseError) throw new ParseFailureError(error.reason, { cause: error });
    if (error instanceof ParseLimitError) {
      throw new ParseFailureError(`the page is too complex to read (${error.message})`, {
        cause: error,
      });
    }
    if (error instanceof ParseWorkerError) {
      const failure = new ApiError(
        500,
        'internal',
        `the file could not be parsed: ${error.message}`,
      );
      throw Object.assign(failure, { cause: error });
    }
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
