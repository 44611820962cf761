// Success envelopes too large to build as one string: the base64 of a file, streamed from where it
// is kept (getWebpageContent), and a list of items that are already JSON texts (listViewWebpages).
import { Readable } from 'node:stream';
import { StreamedEnvelope, StreamedFile } from '../http/operations.ts';
import type { Original } from '../store/originals.ts';

const PREFIX = Buffer.from('{"success":true,"data":"');
const SUFFIX = Buffer.from('"}');
/** Read size: a multiple of 3, so every chunk but the last encodes without padding. */
const CHUNK = 3 * 128 * 1024;

export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * `{"success":true,"data":"<base64 of the file>"}`, encoded chunk by chunk (chunks of a multiple of
 * 3 bytes): a large file costs a few hundred kilobytes of memory instead of the file, its base64
 * text and its JSON copy.
 */
export function base64Envelope({ size, stream }: Original): StreamedEnvelope {
  async function* envelope() {
    yield PREFIX;
    let carry = Buffer.alloc(0);
    for await (const data of stream(CHUNK)) {
      const chunk = carry.length === 0 ? (data as Buffer) : Buffer.concat([carry, data as Buffer]);
      const usable = chunk.length - (chunk.length % 3);
      if (usable > 0) yield Buffer.from(chunk.subarray(0, usable).toString('base64'), 'latin1');
      carry = Buffer.from(chunk.subarray(usable));
    }
    if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
    yield SUFFIX;
  }
  return new StreamedEnvelope(
    Readable.from(envelope(), { objectMode: false }),
    PREFIX.length + base64Length(size) + SUFFIX.length,
  );
}

/**
 * The file itself (Folio's extension of `getWebpageContent`), streamed, as a download named
 * `fileName`: never shown as a page of this origin (with `nosniff`, for every answer).
 */
export function rawFile({ size, stream }: Original, fileName: string): StreamedFile {
  return new StreamedFile(
    stream(),
    'application/octet-stream',
    `attachment; filename="${fileName}"`,
    size,
  );
}

/**
 * `{"success":true,"data":{"<key>":[<items>], ...fields}}` where `items` are chunks of JSON texts
 * joined by commas (each chunk is items joined by commas; chunks are joined by commas too) and
 * `fields` small values written before the list.
 */
export function jsonListEnvelope(
  key: string,
  chunks: readonly Buffer[],
  etag?: string,
  fields: Readonly<Record<string, boolean | number | string>> = {},
): StreamedEnvelope {
  const before = Object.entries(fields)
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)},`)
    .join('');
  const head = Buffer.from(`{"success":true,"data":{${before}${JSON.stringify(key)}:[`);
  const tail = Buffer.from(']}}');
  const parts = [
    head,
    ...chunks.flatMap((chunk, index) => (index === 0 ? [chunk] : [COMMA, chunk])),
    tail,
  ];
  const length = parts.reduce((total, part) => total + part.length, 0);
  return new StreamedEnvelope(Readable.from(parts, { objectMode: false }), length, etag);
}

const COMMA = Buffer.from(',');
