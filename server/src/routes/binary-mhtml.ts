// Folio's extension of getWebpageContent for the preview: an MHTML page with the bodies of its
// base64 parts sent as their bytes (`Content-Transfer-Encoding: binary`, which MIME and the app's
// MHTML reader accept). The browser then decodes no base64 in the preview's worker and downloads a
// quarter less. Each part is decoded as it is sent, so the decoding overlaps the transfer. The
// file the user uploaded is still what the download and the JSON envelope give, byte for byte.
//
// The linked answer (the preview's) sends its large parts as links (`part-links.ts`), so it needs
// only the bytes of the small ones: with the page's index of parts (migration 15, kept at upload)
// it reads just those ranges of the file, ~50 kB of a 16 MB page with six 2 MB images. A page with
// no index (stored before it) is read whole once, and its index kept for the next time.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import {
  BINARY_MHTML_TYPE,
  LINKED_MHTML_TYPE,
  PART_URL_HEADER,
} from '../../../shared/contract/media-types.ts';
import {
  readMhtmlStructure,
  type MhtmlStructure,
  type RawPart,
} from '../../../shared/formats/mhtml.ts';
import { readMhtmlIndex, writeMhtmlIndex } from '../../../shared/formats/mhtml-index.ts';
import { IMAGE_TYPES, isLinkableType } from '../../../shared/formats/resource-types.ts';
import { StreamedFile } from '../http/operations.ts';
import { rangesIn, type ByteRange, type Original } from '../store/originals.ts';
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
export type LinkPart = (part: RawPart, encoding: PartEncoding) => string | null;

/** Each range's bytes of the file, in order (`Original.read`, or `rangesIn` its bytes). */
export type ReadRanges = (ranges: readonly ByteRange[]) => AsyncIterable<Buffer>;

/**
 * The bodies one read brings in at most, several small parts in a row being read at once (with
 * the boundaries and headers between them) rather than each on its own.
 */
const RUN_MAX_BYTES = 1024 * 1024;

/** The parts sent in the answer (not linked), in runs of neighbours, each run read at once. */
function runsOf(parts: readonly RawPart[], links: readonly (string | null)[]): RawPart[][] {
  const runs: RawPart[][] = [];
  let run: RawPart[] = [];
  for (const [index, part] of parts.entries()) {
    if (links[index] !== null) {
      if (run.length > 0) runs.push(run);
      run = [];
      continue;
    }
    const first = run[0];
    if (first !== undefined && part.bodyEnd - first.bodyStart > RUN_MAX_BYTES) {
      runs.push(run);
      run = [];
    }
    run.push(part);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The same archive with its base64 parts in binary, in chunks: the headers, then each part as it
 * is decoded. Nested multiparts come out flat, in document order, as the app's reader sees them;
 * the top-level Content-Type keeps its parameters (`type`, `start`), so the same part is the page.
 * The new boundary carries 192 random bits, which no page can know in advance, so no decoded body
 * can hold it. `structure` is the file's (`readMhtmlStructure`, or its index); `read` gives the
 * bodies of the parts the answer carries, never those of linked parts.
 */
export function binaryMhtmlChunks(
  structure: MhtmlStructure,
  read: ReadRanges,
  linkPart?: LinkPart,
): AsyncIterable<Buffer> {
  const { headers, contentType, parts } = structure;
  const links = parts.map((part) => (linkPart ? linkOf(part, linkPart) : null));
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
  const runs = runsOf(parts, links);
  const firsts = new Set(runs.map((run) => run[0]));
  async function* chunks(): AsyncGenerator<Buffer> {
    yield head;
    const bodies = read(
      runs.map((run) => ({ start: run[0]!.bodyStart, end: run[run.length - 1]!.bodyEnd })),
    )[Symbol.asyncIterator]();
    // The run being sent, and where it starts in the file.
    let span: { bytes: Buffer; start: number } = { bytes: Buffer.alloc(0), start: 0 };
    try {
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
        if (firsts.has(part)) {
          const next = await bodies.next();
          if (next.done === true) throw new Error('the file ends before its parts do');
          span = { bytes: next.value, start: part.bodyStart };
        }
        const raw = span.bytes.subarray(part.bodyStart - span.start, part.bodyEnd - span.start);
        const decoded = isBase64(part);
        // A decoded part says so instead of base64; any other keeps its headers as they were.
        const lines = decoded
          ? `${headerLines(part.headers, 'content-transfer-encoding')}content-transfer-encoding: binary${CRLF}`
          : headerLines(part.headers);
        yield Buffer.from(`--${boundary}${CRLF}${lines}${CRLF}`, 'latin1');
        yield decoded ? decodePart(raw, 'base64') : raw;
        yield Buffer.from(CRLF);
      }
    } finally {
      // Also when the answer stops early (the client went away): the file is closed.
      await bodies.return?.();
    }
    yield Buffer.from(`--${boundary}--${CRLF}`);
  }
  return chunks();
}

function linkOf(part: RawPart, linkPart: LinkPart): string | null {
  if (part.bodyEnd - part.bodyStart < LINKED_PART_MIN_BYTES) return null;
  if (!isLinkableType(part.contentType)) return null;
  const encoding = linkEncoding(part);
  if (encoding === null) return null;
  return linkPart(part, encoding);
}

/**
 * The largest file converted: the app's preview reads no larger archive (its
 * `MAX_PREVIEW_INPUT_BYTES`), and the conversion holds the file in memory.
 */
export const MAX_CONVERTED_BYTES = 64 * 1024 * 1024;

function answer(chunks: AsyncIterable<Buffer>, fileName: string, linked: boolean): StreamedFile {
  return new StreamedFile(
    Readable.from(chunks, { objectMode: false }),
    linked ? LINKED_MHTML_TYPE : BINARY_MHTML_TYPE,
    `attachment; filename="${fileName}"`,
  );
}

/** The file's structure, or `null` when it is not an MHTML archive. */
function structureOf(bytes: Buffer): MhtmlStructure | null {
  try {
    return readMhtmlStructure(bytes);
  } catch {
    return null;
  }
}

/**
 * The original as binary MHTML (see `binaryMhtmlChunks`), or `null` when it cannot be read as one
 * or is larger than `MAX_CONVERTED_BYTES` (the caller then sends the file as it is).
 */
export async function binaryMhtmlFile(
  original: Original,
  fileName: string,
): Promise<StreamedFile | null> {
  // The file is read whole: only within the preview's own bound (a larger one is refused there).
  if (original.size > MAX_CONVERTED_BYTES) return null;
  const bytes = await original.bytes();
  const structure = structureOf(bytes);
  const read: ReadRanges = (ranges) => rangesIn(bytes, ranges);
  return structure && answer(binaryMhtmlChunks(structure, read), fileName, false);
}

/**
 * The original as linked MHTML for page `id` (`LINKED_MHTML_TYPE`): its large parts as signed
 * links, with the `Link` header that names the images to load ahead (`''` for none, relative to
 * `requestUrl`); `null` as for `binaryMhtmlFile`. With the page's index of parts, only the small
 * parts' bytes are read; without, the file is read whole, its index kept, and its linked parts
 * held for their requests while it is in memory (`held-parts.ts`).
 */
export async function linkedMhtmlFile(
  context: RouteContext,
  id: string,
  original: Original,
  fileName: string,
  requestUrl: string,
): Promise<{ file: StreamedFile; preload: string } | null> {
  if (original.size > MAX_CONVERTED_BYTES) return null;
  const { originals } = context.store;
  const kept = originals.partIndex(id);
  let structure = kept === undefined ? undefined : readMhtmlIndex(kept, original.size);
  let bytes: Buffer | undefined;
  if (structure === undefined) {
    bytes = await original.bytes();
    const found = structureOf(bytes);
    if (found === null) return null;
    structure = found;
    const index = writeMhtmlIndex(structure, bytes.length);
    if (index !== null) originals.keepPartIndex(id, index);
  }
  const expires = linkExpiry(context.now());
  const key = context.partLinkKey();
  const images: string[] = [];
  const linkPart: LinkPart = (part, encoding) => {
    const { bodyStart: start, bodyEnd: end, contentType: type } = part;
    const path = partLinkPath(key, { id, start, end, encoding, type, expires });
    if (IMAGE_TYPES.has(type)) images.push(path);
    if (bytes !== undefined) {
      // The client asks for it next: held while the file is in memory, decoded when asked.
      const body = bytes.subarray(start, end);
      context.heldParts.hold(partKey(id, start, end), body.length, () =>
        decodePart(body, encoding),
      );
    }
    return path;
  };
  // With the file in memory (no index), its parts come from there.
  const read: ReadRanges = (ranges) =>
    bytes === undefined ? original.read(ranges) : rangesIn(bytes, ranges);
  const chunks = binaryMhtmlChunks(structure, read, linkPart);
  return { file: answer(chunks, fileName, true), preload: preloadLinks(requestUrl, images) };
}
