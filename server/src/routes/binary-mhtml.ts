// Folio's extension of getWebpageContent for the preview: an MHTML page with the bodies of its
// base64 parts sent as their bytes (`Content-Transfer-Encoding: binary`, which MIME and the app's
// MHTML reader accept). The browser then decodes no base64 in the preview's worker and downloads a
// quarter less. Each part is decoded as it is sent, so the decoding overlaps the transfer. The
// file the user uploaded is still what the download and the JSON envelope give, byte for byte.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import {
  BINARY_MHTML_TYPE,
  LINKED_MHTML_TYPE,
  PART_URL_HEADER,
} from '../../../shared/contract/media-types.ts';
import { readMhtmlStructure, type RawPart } from '../../../shared/formats/mhtml.ts';
import { IMAGE_TYPES, isLinkableType } from '../../../shared/formats/resource-types.ts';
import { StreamedFile } from '../http/operations.ts';
import type { Original } from '../store/originals.ts';
import type { RouteContext } from './context.ts';
import { partKey } from './held-parts.ts';
import {
  decodePart,
  LINKED_PART_MIN_BYTES,
  linkExpiry,
  partLinkPath,
  preloadLinks,
  type PartEncoding,
} from './part-links.ts';

const CRLF = '\r\n';

/** A MIME parameter value, quoted. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The headers as lines, but for those named in `skip`. A part's own `Folio-Part-Url` is always
 * dropped: only the server writes that header, in the parts it links.
 */
function headerLines(headers: ReadonlyMap<string, string>, ...skip: string[]): string {
  let lines = '';
  for (const [name, value] of headers) {
    if (name !== PART_URL_HEADER && !skip.includes(name)) lines += `${name}: ${value}${CRLF}`;
  }
  return lines;
}

function transferEncoding(part: RawPart): string {
  return part.headers.get('content-transfer-encoding')?.trim().toLowerCase() ?? '';
}

function isBase64(part: RawPart): boolean {
  return transferEncoding(part) === 'base64';
}

/** How a part's body is written, if a link can serve it as it is stored (decoded or not). */
function linkEncoding(part: RawPart): PartEncoding | null {
  const encoding = transferEncoding(part);
  if (encoding === 'base64') return 'base64';
  return ['', '7bit', '8bit', 'binary'].includes(encoding) ? 'binary' : null;
}

/**
 * Makes the address of a part's link (`part-links.ts`), or says `null`: the part stays in the
 * answer. Called only for large parts of a linkable type, each once, in document order, before
 * the answer's first chunk (so that the caller knows every link before it answers).
 */
export type LinkPart = (part: RawPart, encoding: PartEncoding, body: Buffer) => string | null;

/**
 * The same archive with its base64 parts in binary, in chunks: the headers, then each part as it
 * is decoded. Nested multiparts come out flat, in document order, as the app's reader sees them;
 * the top-level Content-Type keeps its parameters (`type`, `start`), so the same part is the page.
 * The new boundary carries 192 random bits, which no page can know in advance, so no decoded body
 * can hold it. Throws `FormatError`, before any chunk, for bytes that are not an MHTML archive.
 */
export function binaryMhtmlChunks(bytes: Buffer, linkPart?: LinkPart): Iterable<Buffer> {
  const { headers, contentType, parts } = readMhtmlStructure(bytes);
  const links = parts.map((part) => (linkPart ? linkOf(bytes, part, linkPart) : null));
  const boundary = `----FolioBinary--${randomBytes(24).toString('hex')}----`;
  const params = [...contentType.params]
    .filter(([name]) => name !== 'boundary')
    .map(([name, value]) => `;${CRLF}\t${name}=${quoted(value)}`)
    .join('');
  const head = Buffer.from(
    `${headerLines(headers, 'content-type')}content-type: ${contentType.mime}${params};` +
      `${CRLF}\tboundary=${quoted(boundary)}${CRLF}${CRLF}`,
    'latin1',
  );
  function* chunks(): Generator<Buffer> {
    yield head;
    for (const [index, part] of parts.entries()) {
      const link = links[index];
      if (link) {
        // Its bytes are the link's: an empty body, and the address in their place.
        const lines = headerLines(part.headers, 'content-transfer-encoding');
        yield Buffer.from(
          `--${boundary}${CRLF}${lines}content-transfer-encoding: binary${CRLF}` +
            `${PART_URL_HEADER}: ${link}${CRLF}${CRLF}${CRLF}`,
          'latin1',
        );
        continue;
      }
      const raw = bytes.subarray(part.bodyStart, part.bodyEnd);
      const decoded = isBase64(part);
      // A decoded part says so instead of base64; any other keeps its headers as they were.
      const lines = decoded
        ? `${headerLines(part.headers, 'content-transfer-encoding')}content-transfer-encoding: binary${CRLF}`
        : headerLines(part.headers);
      yield Buffer.from(`--${boundary}${CRLF}${lines}${CRLF}`, 'latin1');
      yield decoded ? decodePart(raw, 'base64') : raw;
      yield Buffer.from(CRLF);
    }
    yield Buffer.from(`--${boundary}--${CRLF}`);
  }
  return chunks();
}

function linkOf(bytes: Buffer, part: RawPart, linkPart: LinkPart): string | null {
  if (part.bodyEnd - part.bodyStart < LINKED_PART_MIN_BYTES) return null;
  if (!isLinkableType(part.contentType)) return null;
  const encoding = linkEncoding(part);
  if (encoding === null) return null;
  return linkPart(part, encoding, bytes.subarray(part.bodyStart, part.bodyEnd));
}

/**
 * The largest file converted: the app's preview reads no larger archive (its
 * `MAX_PREVIEW_INPUT_BYTES`), and the conversion holds the file in memory.
 */
export const MAX_CONVERTED_BYTES = 64 * 1024 * 1024;

/**
 * The original as binary MHTML (see `binaryMhtmlChunks`), or `null` when it cannot be read as one
 * or is larger than `MAX_CONVERTED_BYTES` (the caller then sends the file as it is).
 */
export async function binaryMhtmlFile(
  original: Original,
  fileName: string,
  linkPart?: LinkPart,
): Promise<StreamedFile | null> {
  // The file is read whole: only within the preview's own bound (a larger one is refused there).
  if (original.size > MAX_CONVERTED_BYTES) return null;
  let chunks: Iterable<Buffer>;
  try {
    chunks = binaryMhtmlChunks(await original.bytes(), linkPart);
  } catch {
    return null;
  }
  return new StreamedFile(
    Readable.from(chunks, { objectMode: false }),
    linkPart ? LINKED_MHTML_TYPE : BINARY_MHTML_TYPE,
    `attachment; filename="${fileName}"`,
  );
}

/**
 * The original as linked MHTML for page `id` (`LINKED_MHTML_TYPE`): its large parts as signed
 * links, each held for its request while the file is in memory (`held-parts.ts`), with the `Link`
 * header that names the images to load ahead (`''` for none, relative to `requestUrl`); `null`
 * as for `binaryMhtmlFile`.
 */
export async function linkedMhtmlFile(
  context: RouteContext,
  id: string,
  original: Original,
  fileName: string,
  requestUrl: string,
): Promise<{ file: StreamedFile; preload: string } | null> {
  const expires = linkExpiry(context.now());
  const key = context.partLinkKey();
  const images: string[] = [];
  const linkPart: LinkPart = (part, encoding, body) => {
    const { bodyStart: start, bodyEnd: end, contentType: type } = part;
    const path = partLinkPath(key, {
      id,
      start,
      end,
      encoding,
      type,
      expires,
    });
    if (IMAGE_TYPES.has(type)) images.push(path);
    // The client asks for it next: held while the file is in memory, decoded when asked.
    context.heldParts.hold(partKey(id, start, end), body.length, () => decodePart(body, encoding));
    return path;
  };
  const file = await binaryMhtmlFile(original, fileName, linkPart);
  return file === null ? null : { file, preload: preloadLinks(requestUrl, images) };
}
