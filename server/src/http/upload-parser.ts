// The body parser of uploads: the JSON body is read as it arrives and its `content` (base64) is
// decoded straight into a temp file of the blob store while it is hashed, so a 20 MB upload never
// sits in memory as a 27 MB string (nor its copies). The rest of the body is parsed as usual and
// validated against the contract by the route, with the same answers as the plain JSON parser.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { StrictBase64Decoder, type Base64Summary } from '../base64-stream.ts';
import type { BlobStore, StagedBlob } from '../store/blobs.ts';
import { UploadBodyReader, type ContentSink } from './upload-body.ts';

/** The `content` of an upload as received: what the strict decoder found, and the file. */
export interface StagedContent {
  summary: Base64Summary;
  /** sha256 hex of the bytes, when the text was valid base64 within the size limit. */
  sha256: string | undefined;
  /** The decoded bytes (complete only when `sha256` is set); discard it when done. */
  file: StagedBlob;
}

const stagedContents = new WeakMap<FastifyRequest, StagedContent>();

/**
 * The staged `content` of an upload request. When present, the parsed body's `content` is only a
 * stand-in of the same emptiness (the validator still sees a string).
 */
export function stagedContentOf(request: FastifyRequest): StagedContent | undefined {
  return stagedContents.get(request);
}

/** Bytes written to the temp file at once (decoded output is gathered up to this). */
const WRITE_BATCH = 1 << 20;

/** One `content` string being decoded into a temp file (opened at the first write). */
class ContentStaging implements ContentSink {
  private readonly hash = createHash('sha256');
  private readonly decoder: StrictBase64Decoder;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private file: StagedBlob | undefined;
  private discarded = false;

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
    this.decoder.ascii(run);
  }

  unit(code: number): void {
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

  async finish(): Promise<StagedContent> {
    const summary = this.decoder.finish();
    await this.flush(true);
    const complete = summary.valid && !summary.overflow;
    return {
      summary,
      sha256: complete ? this.hash.digest('hex') : undefined,
      file: await this.openFile(),
    };
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
 * Replaces the JSON parser in `scope` (the upload route's plugin) with the streaming one. Files
 * are staged in `blobs`; `maxBytes` caps the decoded size that is written.
 */
export function installUploadBodyParser(
  scope: FastifyInstance,
  blobs: BlobStore,
  maxBytes: number,
): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) =>
    readUploadBody(
      request,
      payload,
      blobs,
      maxBytes,
      (skeleton) =>
        new Promise((resolve, reject) => {
          parseJson(request, skeleton, (error, body) => (error ? reject(error) : resolve(body)));
        }),
    ),
  );
  // The route discards the staged file on every path it runs; a request refused before (by the
  // validator) drops it here, before its answer goes out.
  scope.addHook('onSend', async (request, _reply, payload) => {
    await stagedContents.get(request)?.file.discard();
    return payload;
  });
  scope.addHook('onResponse', async (request) => {
    await stagedContents.get(request)?.file.discard();
  });
}

async function readUploadBody(
  request: FastifyRequest,
  payload: Readable,
  blobs: BlobStore,
  maxBytes: number,
  parseSkeleton: (text: string) => Promise<unknown>,
): Promise<unknown> {
  // The same limits and errors as Fastify's own body reader.
  const limit = request.routeOptions.bodyLimit;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();

  const stagings: ContentStaging[] = [];
  const reader = new UploadBodyReader(() => {
    const staging = new ContentStaging(blobs, maxBytes);
    stagings.push(staging);
    return staging;
  });
  const discardAll = async () => {
    await Promise.all(stagings.map((staging) => staging.discard()));
  };

  let received = 0;
  try {
    for await (const data of payload) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
      received += chunk.length;
      if (received > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
      reader.write(chunk);
      // Only the last content string counts (as in JSON.parse); earlier ones are dropped.
      while (stagings.length > 1) await stagings.shift()!.discard();
      await stagings[0]?.flush();
    }
  } catch (error) {
    await discardAll();
    const status = (error as { statusCode?: unknown }).statusCode;
    if (!(typeof status === 'number' && status >= 400)) {
      (error as { statusCode?: number }).statusCode = 400;
    }
    throw error;
  }
  if (!Number.isNaN(contentLength) && received !== contentLength) {
    await discardAll();
    throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  }
  const skeleton = reader.end();
  const staging = stagings[0];
  if (skeleton === undefined) {
    await discardAll();
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  if (staging !== undefined) {
    try {
      stagedContents.set(request, await staging.finish());
    } catch (error) {
      await discardAll();
      throw error;
    }
  }
  // As the app's JSON parser: an empty body is no body.
  if (skeleton.length === 0) return undefined;
  return parseSkeleton(skeleton.toString('utf8'));
}
