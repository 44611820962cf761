// Signed links to the large parts of an MHTML page, for the preview (Folio's extension). The preview
// asks for its page as linked MHTML (`LINKED_MHTML_TYPE`): its text and styles come in the answer,
// and each large image, font or media part comes as an address the page's frame loads itself, so
// that the browser neither downloads those bytes into a Blob nor copies them through a worker: its
// network stack hands them straight to its image decoder, and they paint as they arrive.
//
// A link is a capability: the frame cannot send the API's token, so the address carries what it
// may read (the page, a byte range of its file, how it is encoded, the type it is served as and
// when the link expires) and an HMAC-SHA256 of all of it under a key kept with the archive
// (migration 14), bound to the credentials in force (`partLinkKeys`): revoking a token, or starting
// with another default token, makes every link handed out before refused. The links live in a
// Fastify scope of their own, outside the API's token scope:
//
// ```
// /parts                                                     no token hook: the signature is the credential
// ├── GET /:id/:start/:end/:encoding/:expires/:type/:subtype/:signature   the part, else 404
// └── /, /*                                                  404 (the same answer)
// ```
//
// Every refusal is the same 404. A part is only ever served as an image, font or media type
// (`isLinkableType`), with `nosniff` and a sandboxing CSP, never as a document.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';

import { isLinkableType } from '../../../shared/formats/resource-types.ts';
import { refuse, refuseTheRest } from '../http/closed-scope.ts';
import { failure } from '../http/envelope.ts';
import { CAPABILITY_ROUTE } from '../http/request-log.ts';
import type { Original } from '../store/originals.ts';
import { hashToken } from '../store/tokens.ts';
import { partKey } from './held-parts.ts';
import type { RouteContext } from './context.ts';

/** Where the links live: outside the API's token scope (`api-scope.ts`). */
export const PART_LINKS_PREFIX = '/parts';

/** Parts smaller than this stay in the answer: a request each would cost more than they weigh. */
export const LINKED_PART_MIN_BYTES = 32 * 1024;

const DAY_S = 86_400;

/** How a linked part's bytes are written in the file. */
export type PartEncoding = 'base64' | 'binary';

/** What a link grants: bytes `start` to `end` of page `id`'s file, decoded, served as `type`. */
export interface PartLink {
  id: string;
  start: number;
  end: number;
  encoding: PartEncoding;
  /** Lowercase `type/subtype`, a linkable one. */
  type: string;
  /** Epoch seconds after which the link is refused. */
  expires: number;
}

/**
 * When a link made at `nowMs` expires: the end of the next UTC day, so that every link to a part
 * made on one day is the same address (the browser's cache keeps the part), valid 24 to 48 hours.
 */
export function linkExpiry(nowMs: number): number {
  return (Math.floor(nowMs / 1000 / DAY_S) + 2) * DAY_S;
}

/**
 * The key that signs part links now: the archive's own key (migration 14) bound to the credentials
 * in force, the default token and how many tokens of the CLI are revoked (a count that only
 * grows). A link is handed to whoever holds a token; once a token is revoked, or the server starts
 * with another default token, the links handed out before are refused like the token itself, and
 * the next answers carry new ones. The count is read at each call (the CLI revokes from another
 * process); the key is derived again only when it has changed.
 */
export function partLinkKeys(
  archiveKey: Buffer,
  defaultToken: string,
  revokedTokens: () => number,
): () => Buffer {
  const tokenDigest = hashToken(defaultToken).toString('hex');
  let current: { revoked: number; key: Buffer } | undefined;
  return () => {
    const revoked = revokedTokens();
    if (current?.revoked !== revoked) {
      const credentials = ['folio-part-link-key-1', tokenDigest, revoked];
      const key = createHmac('sha256', archiveKey).update(JSON.stringify(credentials)).digest();
      current = { revoked, key };
    }
    return current.key;
  };
}

function signature(key: Buffer, link: PartLink): Buffer {
  const fields = ['folio-part-link-1', link.id, link.start, link.end, link.encoding, link.type];
  return createHmac('sha256', key)
    .update(JSON.stringify([...fields, link.expires]))
    .digest();
}

/**
 * The link's address relative to the server's root (what the linked MHTML's parts carry). `type`
 * must be linkable (`isLinkableType`): its two halves are two segments, as written.
 */
export function partLinkPath(key: Buffer, link: PartLink): string {
  const numbers = [link.start, link.end].map(String);
  const sealed = signature(key, link).toString('base64url');
  return [
    PART_LINKS_PREFIX.slice(1),
    encodeURIComponent(link.id),
    ...numbers,
    link.encoding,
    String(link.expires),
    link.type,
    sealed,
  ].join('/');
}

/** The most links a `Link` header lists (the first images of the page, in document order). */
export const MAX_PRELOAD_LINKS = 24;

/**
 * A `Link` header (RFC 8288) that tells a client to preload `paths` (part links relative to the
 * server's root, `partLinkPath`) as images. Each reference is relative to the request's own
 * address, `requestPath` (as the server saw it), so it resolves to the same link behind a proxy
 * that serves the archive under a path of its own.
 */
export function preloadLinks(requestPath: string, paths: readonly string[]): string {
  const pathname = requestPath.split('?', 1)[0] ?? '';
  const up = '../'.repeat(Math.max(0, pathname.split('/').length - 2));
  return paths
    .slice(0, MAX_PRELOAD_LINKS)
    .map((path) => `<${up}${path}>; rel=preload; as=image`)
    .join(', ');
}

const NUMBER = /^(?:0|[1-9]\d{0,14})$/;
const TOKEN = /^[a-z0-9.+-]{1,100}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

interface LinkParams {
  id: string;
  start: string;
  end: string;
  encoding: string;
  expires: string;
  type: string;
  subtype: string;
  signature: string;
}

/** The link the parameters name if its signature is the key's and it has not expired. */
export function verifyPartLink(
  key: Buffer,
  params: LinkParams,
  nowMs: number,
): PartLink | undefined {
  const { encoding } = params;
  if (encoding !== 'base64' && encoding !== 'binary') return undefined;
  if (![params.start, params.end, params.expires].every((value) => NUMBER.test(value))) {
    return undefined;
  }
  if (!TOKEN.test(params.type) || !TOKEN.test(params.subtype)) return undefined;
  if (!SIGNATURE.test(params.signature)) return undefined;
  const link: PartLink = {
    id: params.id,
    start: Number(params.start),
    end: Number(params.end),
    encoding,
    type: `${params.type}/${params.subtype}`,
    expires: Number(params.expires),
  };
  // Compared as written, not decoded: the last of 43 base64 characters has two bits no byte
  // uses, so four spellings would decode to the same digest. Only the one the server wrote passes.
  const presented = Buffer.from(params.signature, 'latin1');
  const expected = Buffer.from(signature(key, link).toString('base64url'), 'latin1');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return undefined;
  }
  // Checked after the signature: only the server's own links get this far.
  if (link.expires * 1000 <= nowMs || link.end <= link.start) return undefined;
  if (!isLinkableType(link.type)) return undefined;
  return link;
}

/** Base64 text (line breaks and all) to bytes, as it streams: whole quanta at a time. */
export class Base64Decoder extends Transform {
  private carry = '';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.carry + chunk.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, '');
    const whole = text.length - (text.length % 4);
    this.carry = text.slice(whole);
    done(null, whole > 0 ? Buffer.from(text.slice(0, whole), 'base64') : undefined);
  }

  override _flush(done: TransformCallback): void {
    done(null, this.carry.length > 0 ? Buffer.from(this.carry, 'base64') : undefined);
  }
}

/** The pieces a part is read in. */
const PART_PIECE_BYTES = 1024 * 1024;

/** A linked part's bytes from its body as the file has it. */
export function decodePart(body: Buffer, encoding: PartEncoding): Buffer {
  // Node's decoder skips the line breaks (and, leniently, any character out of the alphabet),
  // natively: a few milliseconds for a 2 MB image.
  return encoding === 'base64' ? Buffer.from(body.toString('latin1'), 'base64') : body;
}

/**
 * Base64 parts up to this size are read and decoded at once (natively, a few milliseconds for a
 * photo) and sent with their length; larger ones are decoded as they stream.
 */
const DECODED_AT_ONCE_MAX_BYTES = 16 * 1024 * 1024;

/** The part's bytes: decoded at once when small enough, else as a stream. */
async function partBody(original: Original, link: PartLink): Promise<Buffer | Readable> {
  const range = { start: link.start, end: link.end };
  if (link.encoding === 'base64' && link.end - link.start <= DECODED_AT_ONCE_MAX_BYTES) {
    // One read into one buffer, decoded at once.
    for await (const body of original.read([range])) return decodePart(body, 'base64');
  }
  const bytes = original.stream(PART_PIECE_BYTES, range);
  // An error reading them ends the answer (Fastify closes the connection).
  return link.encoding === 'binary' ? bytes : pipeline(bytes, new Base64Decoder(), () => {});
}

const NOT_FOUND = failure('not_found', 'part not found');

function notFound(reply: FastifyReply): FastifyReply {
  return refuse(reply, NOT_FOUND);
}

export async function registerPartLinks(
  app: FastifyInstance,
  context: RouteContext,
): Promise<void> {
  const { store } = context;
  await app.register(
    async (parts) => {
      parts.get<{ Params: LinkParams }>(
        '/:id/:start/:end/:encoding/:expires/:type/:subtype/:signature',
        // The signature is never logged.
        { config: CAPABILITY_ROUTE },
        async (request, reply) => {
          // A server that answers as HamsterBase makes no links.
          if (context.asHamsterBase) return notFound(reply);
          const nowMs = context.now();
          const link = verifyPartLink(context.partLinkKey(), request.params, nowMs);
          if (link === undefined || store.webpages.findLive(link.id) === undefined) {
            return notFound(reply);
          }
          const original = await store.originals.find(link.id);
          if (original === undefined || link.end > original.size) return notFound(reply);
          const body =
            context.heldParts.take(partKey(link.id, link.start, link.end)) ??
            (await partBody(original, link));
          const maxAge = Math.max(0, link.expires - Math.ceil(nowMs / 1000));
          return reply
            .type(link.type)
            .header('cache-control', `private, max-age=${maxAge}, immutable`)
            .header('content-security-policy', "default-src 'none'; sandbox")
            .header('referrer-policy', 'no-referrer')
            .send(body);
        },
      );
      refuseTheRest(parts, NOT_FOUND);
    },
    { prefix: PART_LINKS_PREFIX },
  );
}
