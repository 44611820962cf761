// An MHTML archive's structure as text: its top-level headers, and each leaf part's headers and
// where its body is in the file. Folio's server keeps it with each MHTML page it parses at upload,
// so that the preview's linked answer (server/src/routes/binary-mhtml.ts) reads only the bytes of
// the parts it sends, not the whole file: a 16 MB page with six 2 MB images is ~50 kB of them.
// Read back, the structure is the one `readMhtmlStructure` finds in the file, part for part.
import { MHTML_MAX_PARTS } from './limits.ts';
import { parseContentType, rawPart, type MhtmlStructure, type RawPart } from './mhtml.ts';

const VERSION = 1;
const HEADER_NAME = /^[!-9;-@[-~]+$/;

/**
 * An index longer than this is not kept (the file is then read whole when asked for): each
 * part's headers are in it, and a page of thousands of parts with large headers gains little.
 */
export const MHTML_INDEX_MAX_CHARS = 1024 * 1024;

type Headers = [string, string][];

interface IndexText {
  v: typeof VERSION;
  /** The size of the file the offsets are in. */
  size: number;
  closed: boolean;
  headers: Headers;
  /** Each leaf part: its headers, where its body starts, where it ends. */
  parts: [Headers, number, number][];
}

/** The index of a file of `size` bytes whose structure is `structure`; `null` when too long. */
export function writeMhtmlIndex(structure: MhtmlStructure, size: number): string | null {
  const index: IndexText = {
    v: VERSION,
    size,
    closed: structure.closed,
    headers: [...structure.headers],
    parts: structure.parts.map((part) => [[...part.headers], part.bodyStart, part.bodyEnd]),
  };
  const text = JSON.stringify(index);
  return text.length > MHTML_INDEX_MAX_CHARS ? null : text;
}

/**
 * The structure `text` records for a file of `size` bytes, or `undefined` when it is not an index
 * this version wrote, is for a file of another size, or names a part outside the file or out of
 * order (the caller then reads the file itself).
 */
export function readMhtmlIndex(text: string, size: number): MhtmlStructure | undefined {
  let index: unknown;
  try {
    index = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(index) || index.v !== VERSION || index.size !== size) return undefined;
  if (typeof index.closed !== 'boolean' || !Array.isArray(index.parts)) return undefined;
  if (index.parts.length > MHTML_MAX_PARTS) return undefined;
  const headers = headerMap(index.headers);
  const contentType = parseContentType(headers?.get('content-type') ?? '');
  if (headers === undefined || !contentType.mime.startsWith('multipart/')) return undefined;
  const parts: RawPart[] = [];
  let end = 0;
  for (const entry of index.parts as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3) return undefined;
    const [partHeaders, bodyStart, bodyEnd] = entry as unknown[];
    const map = headerMap(partHeaders);
    if (map === undefined || !isOffset(bodyStart) || !isOffset(bodyEnd)) return undefined;
    // In document order, within the file: each body after the one before.
    if (bodyStart < end || bodyEnd < bodyStart || bodyEnd > size) return undefined;
    end = bodyEnd;
    parts.push(rawPart(map, bodyStart, bodyEnd));
  }
  return { headers, contentType, parts, closed: index.closed };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOffset(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function headerMap(value: unknown): Map<string, string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const map = new Map<string, string>();
  for (const entry of value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [name, text] = entry as unknown[];
    if (typeof name !== 'string' || typeof text !== 'string' || map.has(name)) return undefined;
    // As `readMhtmlStructure` reads them: a lowercase name, a value on one line.
    if (!HEADER_NAME.test(name) || /[\r\n]/.test(text)) return undefined;
    map.set(name, text);
  }
  return map;
}
