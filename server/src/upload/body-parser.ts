// The upload route's body parser: the JSON body is read as it arrives (body-reader.ts refuses any
// other shape at once) and its `content` is decoded (strict base64) while it is hashed: held in
// memory while it is under WRITE_BATCH (a small page: no temp file, nothing read back for the
// parse), written to a temp file of the blob store as it arrives beyond, so that no large upload
// is ever held whole in memory. The route gets the small fields, validated by the contract as any
// body, and the received content.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { badRequest } from '../http/errors.ts';
import { StagedBytes, type BlobStore, type Staged, type StagedBlob } from '../store/blobs.ts';
import { StrictBase64Decoder, type Base64Summary } from './base64-decoder.ts';
import { uploadFieldMessage } from './hamsterbase-messages.ts';
import {
  CONTENT_KEY,
  UploadBodyReader,
  UploadShapeError,
  UploadSyntaxError,
  type ContentSink,
  type UploadShape,
} from './body-reader.ts';

/** The `content` of an upload as received: what the strict decoder found, and the file. */
export interface ReceivedContent {
  summary: Base64Summary;
  /** sha256 hex of the bytes, when the text was valid base64 within the size limit. */
  sha256: string | undefined;
  /**
   * The decoded bytes (complete only when `sha256` is set): in memory under WRITE_BATCH, else in
   * a temp file; discard it when done.
   */
  file: Staged;
}

/**
 * Where a parsed upload body keeps its received content. A symbol: the contract's validator
 * (which refuses unknown fields) does not see it.
 */
const RECEIVED = Symbol('received content');

/**
 * The parsed body of an upload: the small fields as sent and `content`, which the contract's
 * validator checks for its type and emptiness only. The text itself was decoded into a file as
 * it arrived (`receivedContentOf`): here `content` is only the text's first characters.
 */
export interface UploadBody {
  [key: string]: string;
  [RECEIVED]: ReceivedContent;
}

/** How much of the content text the parsed body keeps (see UploadBody). */
const CONTENT_HEAD = 16;

/** The received content of an upload body, once validated (undefined for any other value). */
export function receivedContentOf(body: unknown): ReceivedContent | undefined {
  if (typeof body !== 'object' || body === null || !(RECEIVED in body)) return undefined;
  return (body as UploadBody)[RECEIVED];
}

/**
 * Bytes written to the temp file at once (decoded output is gathered up to this); content that
 * ends before is never written to a temp file but kept in memory.
 */
const WRITE_BATCH = 1 << 20;

/** The `content` string being decoded into a temp file (opened at the first write). */
class ContentStaging implements ContentSink {
  private readonly hash = createHash('sha256');
  private readonly decoder: StrictBase64Decoder;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private file: StagedBlob | undefined;
  private discarded = false;
  /** The text's first characters (see UploadBody). */
  head = '';

  constructor(
    private readonly blobs: BlobStore,
    maxBytes: number,
  ) {
    this.decoder = new StrictBase64Decoder((bytes) => {
      this.hash.update(bytes);
      this.pending.push(bytes);
      this.pendingBytes += bytes.length;
    }, maxBytes);
  }

  ascii(run: string): void {
    if (this.head.length < CONTENT_HEAD) this.head += run.slice(0, CONTENT_HEAD - this.head.length);
    this.decoder.ascii(run);
  }

  unit(code: number): void {
    if (this.head.length < CONTENT_HEAD) this.head += String.fromCharCode(code);
    this.decoder.unit(code);
  }

  /** Writes what was decoded (when enough is gathered, or always when `force`). */
  async flush(force = false): Promise<void> {
    if (this.discarded) return;
    if (this.pendingBytes === 0 || (!force && this.pendingBytes < WRITE_BATCH)) return;
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await (await this.openFile()).write(bytes);
  }

  async finish(): Promise<ReceivedContent> {
    const summary = this.decoder.finish();
    const complete = summary.valid && !summary.overflow;
    const sha256 = complete ? this.hash.digest('hex') : undefined;
    if (this.file === undefined && !this.discarded) {
      return { summary, sha256, file: new StagedBytes(this.takePending()) };
    }
    await this.flush(true);
    return { summary, sha256, file: await this.openFile() };
  }

  /** What was decoded and not written, in a buffer of its own (moved whole to the parser). */
  private takePending(): Uint8Array {
    const bytes = new Uint8Array(this.pendingBytes);
    let offset = 0;
    for (const chunk of this.pending) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    this.pending = [];
    this.pendingBytes = 0;
    return bytes;
  }

  async discard(): Promise<void> {
    this.discarded = true;
    this.pending = [];
    await this.file?.discard();
  }

  private async openFile(): Promise<StagedBlob> {
    this.file ??= await this.blobs.stage();
    if (this.discarded) await this.file.discard();
    return this.file;
  }
}

/**
 * Replaces the JSON parser in `scope` (the upload route's plugin) with the streaming one. Bodies
 * must have `shape`; files are staged in `blobs`; `maxBytes` caps the decoded size written.
 */
export function installUploadBodyParser(
  scope: FastifyInstance,
  blobs: BlobStore,
  maxBytes: number,
  shape: UploadShape,
): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) =>
    receiveUpload(request, payload, blobs, maxBytes, shape),
  );
  // The route discards the received file on every path it runs; a request refused before (by
  // the validator) drops it here, before its answer goes out.
  scope.addHook('onSend', async (request, _reply, payload) => {
    await receivedContentOf(request.body)?.file.discard();
    return payload;
  });
  scope.addHook('onResponse', async (request) => {
    await receivedContentOf(request.body)?.file.discard();
  });
}

async function receiveUpload(
  request: FastifyRequest,
  payload: Readable,
  blobs: BlobStore,
  maxBytes: number,
  shape: UploadShape,
): Promise<UploadBody | undefined> {
  // The same limits and errors as Fastify's own body reader.
  const limit = request.routeOptions.bodyLimit;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();

  let staging: ContentStaging | undefined;
  const reader = new UploadBodyReader(shape, () => {
    staging = new ContentStaging(blobs, maxBytes);
    return staging;
  });

  let received = 0;
  try {
    // Not destroyed on a refusal (see below).
    for await (const data of payload.iterator({ destroyOnReturn: false })) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
      received += chunk.length;
      if (received > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
      reader.write(chunk);
      await staging?.flush();
    }
    if (!Number.isNaN(contentLength) && received !== contentLength) {
      throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
    }
    const read = reader.end();
    if (read === undefined) return undefined;
    // Only the fields of the shape: no `__proto__` or other key can get here.
    const body = { ...read.fields } as UploadBody;
    if (staging !== undefined) {
      body[RECEIVED] = await staging.finish();
      body[CONTENT_KEY] = read.content === 'empty' ? '' : staging.head;
    }
    return body;
  } catch (error) {
    // The rest of the body is read and dropped, so that the answer reaches the client (which
    // may wait to have sent its body before it reads one) on a connection that stays usable.
    payload.resume();
    await staging?.discard();
    throw answerOf(error);
  }
}

/** A refusal as the error handler answers it (400 unless it says otherwise). */
function answerOf(error: unknown): unknown {
  if (error instanceof UploadShapeError) {
    return badRequest(uploadFieldMessage(error.field) ?? error.message);
  }
  if (error instanceof UploadSyntaxError) return new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  const status = (error as { statusCode?: unknown }).statusCode;
  if (!(typeof status === 'number' && status >= 400)) {
    (error as { statusCode?: number }).statusCode = 400;
  }
  return error;
}
