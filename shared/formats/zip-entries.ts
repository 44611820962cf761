// A bounded reader of .zip archives, shared by the upload page (a dropped .zip, read through
// `File.slice`), `npm run import` and the restore of an export (both read through a file handle,
// server/src/archive-io/zip-file-source.ts; the restore adds its own name policy on top). Pure: the
// bytes come from a `ZipSource`, so it runs in the browser, in Node and in unit tests alike.
//
// It reads the central directory first (PKWARE APPNOTE 4.3.16 end record, 4.3.12 file headers,
// 4.5.3 Zip64 extra field) and decides every entry by structure before a byte is inflated:
// - names are split on `/` and `\`; `..` segments, absolute paths, drive letters and NUL bytes are
//   refused; `.` and empty segments are dropped;
// - a symlink (Unix mode S_IFLNK in the high 16 bits of the external attributes, as `zip` and
//   macOS Archive Utility write them) is refused, a directory skipped, an encrypted entry or an
//   unknown compression method refused;
// - a declared size above the limit is refused without reading it, and so is a stored entry whose
//   two sizes differ;
// - an entry is inflated one slice at a time and its output counted as it streams: past its
//   declared size or past the limit it stops, whatever the header says (a zip bomb costs at most
//   the limit plus one slice's output), and the CRC-32 is checked at the end. `entryChunks` hands
//   the output on as it comes (pieces of 64 to 256 KiB), `inflateEntry` gathers it. The inflater
//   is fflate's, or the platform's when the source brings one (Node: node:zlib, about 4x faster).
// A damaged directory (no end record, a multi-part zip, offsets outside the file or past the
// records that follow, a bad signature, an entry count that differs) is a `ZipError` for the whole
// archive, found before any entry is handed out.
import { Inflate } from 'fflate';

/** Random access to the archive's bytes. */
export interface ZipSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The platform's inflater (Node: node:zlib's); fflate's when absent. */
  readonly inflate?: RawInflate;
}

/**
 * Raw deflate (RFC 1951) of an entry's compressed pieces into its bytes, piece by piece as they
 * come: what it holds at a time stays bounded (its consumer stops reading past the declared
 * size). Throws when the data is not deflate or ends before its last block.
 */
export type RawInflate = (deflated: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;

export interface ZipLimits {
  /** Largest inflated entry: the server's upload limit. */
  readonly maxEntryBytes: number;
  /** Entries in the central directory, directories included. */
  readonly maxEntries: number;
}

const MIB = 1024 * 1024;

/** The server's default upload limit (FOLIO_MAX_UPLOAD_MB, 200 MB). */
export const ZIP_DEFAULT_MAX_ENTRY_BYTES = 200 * MIB;
export const ZIP_DEFAULT_MAX_ENTRIES = 200_000;
/** A central directory larger than this is not read. */
const MAX_DIRECTORY_BYTES = 64 * MIB;
/** Compressed bytes read at a time, and pushed to the inflater at a time (≤ ~1032× output). */
const READ_BYTES = 256 * 1024;
const PUSH_BYTES = 4 * 1024;
/** Output handed on by `entryChunks` at a time (at least; at most this plus one push's output). */
const CHUNK_BYTES = 64 * 1024;

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntryBytes: ZIP_DEFAULT_MAX_ENTRY_BYTES,
  maxEntries: ZIP_DEFAULT_MAX_ENTRIES,
};

/** The archive cannot be read at all (nothing of it was handed out). */
export class ZipError extends Error {
  override readonly name = 'ZipError';
}

/** One entry cannot be used (the others can). */
export class ZipEntryError extends Error {
  override readonly name = 'ZipEntryError';
}

export type ZipEntryKind = 'file' | 'directory' | 'symlink';

export interface ZipEntry {
  /** The name as stored. */
  readonly rawName: string;
  /** The cleaned path (segments joined with `/`); `''` when the name was refused. */
  readonly path: string;
  readonly kind: ZipEntryKind;
  /** Why the entry is refused (null: it can be inflated). Directories have none: they are skipped. */
  readonly problem: string | null;
  readonly method: number;
  readonly compressedSize: number;
  /** The declared (uncompressed) size. */
  readonly size: number;
  readonly crc32: number;
  readonly localHeaderOffset: number;
  readonly lastModified: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_LOCATOR64 = 0x07064b50;
const END_BYTES = 22;
const MAX_COMMENT = 0xffff;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const HOST_UNIX = 3;
const HOST_DARWIN = 19;

const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>>
  0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 0x1_0000_0000;

/**
 * Why an entry name cannot be used as a relative path, or its cleaned segments. Decided on the
 * name's structure: separators are `/` and `\`, whatever the archiver's system.
 */
export function checkEntryName(name: string): { segments: string[] } | { problem: string } {
  if (name.includes('\0')) return { problem: 'its name contains a NUL byte' };
  if (name === '') return { problem: 'its name is empty' };
  if (name.startsWith('/') || name.startsWith('\\')) {
    return { problem: `its name is an absolute path ("${name}")` };
  }
  const parts = name.split(/[/\\]/);
  if (/^[A-Za-z]:/.test(parts[0] ?? '')) {
    return { problem: `its name starts with a drive letter ("${name}")` };
  }
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '..') return { problem: `its name leaves the archive's folder ("${name}")` };
    if (part === '' || part === '.') continue;
    segments.push(part);
  }
  return { segments };
}

/** DOS date and time (APPNOTE 4.4.6) as epoch ms (local time, like the archiver wrote it). */
function dosTime(time: number, date: number): number {
  const year = 1980 + (date >> 9);
  const month = ((date >> 5) & 0xf) - 1;
  const day = date & 0x1f;
  return new Date(year, month, day, time >> 11, (time >> 5) & 0x3f, (time & 0x1f) * 2).getTime();
}

async function readExactly(source: ZipSource, offset: number, length: number): Promise<Uint8Array> {
  if (offset < 0 || length < 0 || offset + length > source.size) {
    throw new ZipError('the zip file is damaged (a record points outside the file)');
  }
  const bytes = await source.read(offset, length);
  if (bytes.length !== length) throw new ZipError('the zip file could not be read to its end');
  return bytes;
}

interface Directory {
  offset: number;
  size: number;
  entries: number;
}

async function findDirectory(source: ZipSource, limits: ZipLimits): Promise<Directory> {
  if (source.size < END_BYTES) throw new ZipError('this is not a zip file (too short)');
  const tailLength = Math.min(source.size, END_BYTES + MAX_COMMENT);
  const tailStart = source.size - tailLength;
  const tail = await readExactly(source, tailStart, tailLength);
  let end = -1;
  for (let at = tail.length - END_BYTES; at >= 0; at--) {
    // The end record whose comment reaches exactly the end of the file.
    if (u32(tail, at) === SIG_END && at + END_BYTES + u16(tail, at + 20) === tail.length) {
      end = at;
      break;
    }
  }
  if (end === -1) {
    throw new ZipError('this is not a zip file, or it is damaged (no end of central directory)');
  }
  if (u16(tail, end + 4) !== 0 || u16(tail, end + 6) !== 0) {
    throw new ZipError('the zip file is one part of several (multi-part zips are not read)');
  }
  let entries = u16(tail, end + 10);
  let size = u32(tail, end + 12);
  let offset = u32(tail, end + 16);
  // Where the directory must end: the Zip64 end record when there is one, else the end record.
  let endOffset = tailStart + end;
  const locatorAt = end - 20;
  // A full field says "see Zip64"; without a locator it is the true value (65,535 entries).
  if (
    (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) &&
    locatorAt >= 0 &&
    u32(tail, locatorAt) === SIG_LOCATOR64
  ) {
    const end64Offset = u64(tail, locatorAt + 8);
    if (end64Offset + 56 > tailStart + locatorAt) {
      throw new ZipError('the zip file is damaged (its Zip64 end record is outside the file)');
    }
    const end64 = await readExactly(source, end64Offset, 56);
    if (u32(end64, 0) !== SIG_END64) {
      throw new ZipError('the zip file is damaged (bad Zip64 end record)');
    }
    entries = u64(end64, 32);
    size = u64(end64, 40);
    offset = u64(end64, 48);
    endOffset = end64Offset;
  }
  if (entries > limits.maxEntries) {
    throw new ZipError(
      `the zip file has ${entries} entries, more than the ${limits.maxEntries} an import takes`,
    );
  }
  if (offset + size > endOffset) {
    throw new ZipError('the zip file is damaged (its central directory is outside the file)');
  }
  if (size > MAX_DIRECTORY_BYTES) {
    throw new ZipError('the zip file is damaged or too large (its directory is over 64 MB)');
  }
  return { offset, size, entries };
}

/** The central directory's entries, each decided (see the module comment). */
export async function readZipDirectory(
  source: ZipSource,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ZipEntry[]> {
  const directory = await findDirectory(source, limits);
  const bytes = await readExactly(source, directory.offset, directory.size);
  const decoder = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  let at = 0;
  while (at + 46 <= bytes.length) {
    if (u32(bytes, at) !== SIG_CENTRAL) {
      throw new ZipError('the zip file is damaged (bad central directory record)');
    }
    if (entries.length >= limits.maxEntries) {
      throw new ZipError(
        `the zip file has more than the ${limits.maxEntries} entries an import takes`,
      );
    }
    const madeBy = u16(bytes, at + 4);
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    const lastModified = dosTime(u16(bytes, at + 12), u16(bytes, at + 14));
    const crc32 = u32(bytes, at + 16);
    let compressedSize = u32(bytes, at + 20);
    let size = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    const external = u32(bytes, at + 38);
    let localHeaderOffset = u32(bytes, at + 42);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > bytes.length) {
      throw new ZipError('the zip file is damaged (a directory record runs past its end)');
    }
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    // Zip64 extended information (APPNOTE 4.5.3): only the fields that are 0xFFFFFFFF, in order.
    for (let x = 0; x + 4 <= extra.length;) {
      const id = u16(extra, x);
      const length = u16(extra, x + 2);
      if (id === 0x0001) {
        let field = x + 4;
        const take = () => {
          const value = field + 8 <= x + 4 + length ? u64(extra, field) : Number.NaN;
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
      }
      x += 4 + length;
    }
    const rawName = decoder.decode(nameBytes);
    const host = madeBy >> 8;
    const mode = host === HOST_UNIX || host === HOST_DARWIN ? external >>> 16 : 0;
    const isDirectory =
      rawName.endsWith('/') ||
      rawName.endsWith('\\') ||
      (mode & S_IFMT) === S_IFDIR ||
      (mode === 0 && (external & 0x10) !== 0);
    const kind: ZipEntryKind =
      (mode & S_IFMT) === S_IFLNK ? 'symlink' : isDirectory ? 'directory' : 'file';
    const checked = checkEntryName(rawName);
    let problem: string | null = null;
    if ('problem' in checked) problem = `refused: ${checked.problem}`;
    else if (kind === 'symlink') problem = 'refused: it is a symbolic link';
    else if (kind === 'file') {
      if (flags & 1) problem = 'refused: it is encrypted';
      else if (method !== 0 && method !== 8) {
        problem = `refused: compression method ${method} is not supported (only stored and deflate)`;
      } else if (!Number.isFinite(size) || !Number.isFinite(compressedSize)) {
        problem = 'refused: its Zip64 sizes are missing';
      } else if (size > limits.maxEntryBytes) {
        problem = `refused: it declares ${size} bytes, over the upload limit of ${limits.maxEntryBytes}`;
      } else if (method === 0 && compressedSize !== size) {
        problem = 'refused: the zip file is damaged (it is stored with two different sizes)';
      } else if (
        !Number.isFinite(localHeaderOffset) ||
        localHeaderOffset + 30 + compressedSize > directory.offset
      ) {
        problem = 'refused: the zip file is damaged (its data is outside the file)';
      }
    }
    entries.push({
      rawName,
      path: 'segments' in checked ? checked.segments.join('/') : '',
      kind,
      problem,
      method,
      compressedSize,
      size,
      crc32,
      localHeaderOffset,
      lastModified,
    });
    at = next;
  }
  if (entries.length !== directory.entries) {
    throw new ZipError(
      `the zip file is damaged (its directory lists ${entries.length} of ${directory.entries} entries)`,
    );
  }
  return entries;
}

let crcTables: Int32Array | undefined;

/** The CRC-32 tables for 8 bytes at a time ("slicing-by-8"): table k at k * 256. */
function crcTablesOf(): Int32Array {
  if (crcTables) return crcTables;
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) {
      const previous = tables[(k - 1) * 256 + n] ?? 0;
      tables[k * 256 + n] = (tables[previous & 0xff] ?? 0) ^ (previous >>> 8);
    }
  }
  crcTables = tables;
  return tables;
}

/** CRC-32 (ISO 3309, the zip one), continued from `crc`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = crcTablesOf();
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let c = ~crc;
  let at = 0;
  for (const end = bytes.length - 8; at <= end; at += 8) {
    const a = c ^ words.getInt32(at, true);
    const b = words.getInt32(at + 4, true);
    c =
      (t[1792 + (a & 0xff)] ?? 0) ^
      (t[1536 + ((a >>> 8) & 0xff)] ?? 0) ^
      (t[1280 + ((a >>> 16) & 0xff)] ?? 0) ^
      (t[1024 + (a >>> 24)] ?? 0) ^
      (t[768 + (b & 0xff)] ?? 0) ^
      (t[512 + ((b >>> 8) & 0xff)] ?? 0) ^
      (t[256 + ((b >>> 16) & 0xff)] ?? 0) ^
      (t[b >>> 24] ?? 0);
  }
  for (; at < bytes.length; at++) c = (t[(c ^ words.getUint8(at)) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * The entry's bytes as they are inflated, in pieces of about CHUNK_BYTES (never the whole entry
 * at once). Stops with a `ZipEntryError` as soon as the output passes the declared size or the
 * limit, or when the data is damaged (bad local header, inflate error, wrong CRC-32: that one
 * only after the last piece, so a caller must not keep what it was handed until the end).
 */
export async function* entryChunks(
  source: ZipSource,
  entry: ZipEntry,
  limits: Pick<ZipLimits, 'maxEntryBytes'> = DEFAULT_ZIP_LIMITS,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (entry.problem !== null || entry.kind !== 'file') {
    throw new ZipEntryError(entry.problem ?? `refused: it is a ${entry.kind}`);
  }
  const bound = Math.min(entry.size, limits.maxEntryBytes);
  let local: Uint8Array;
  try {
    local = await readExactly(source, entry.localHeaderOffset, 30);
  } catch {
    throw new ZipEntryError('refused: the zip file is damaged (its local header is missing)');
  }
  if (u32(local, 0) !== SIG_LOCAL) {
    throw new ZipEntryError('refused: the zip file is damaged (bad local header)');
  }
  const dataStart = entry.localHeaderOffset + 30 + u16(local, 26) + u16(local, 28);
  if (dataStart + entry.compressedSize > source.size) {
    throw new ZipEntryError('refused: the zip file is damaged (its data is outside the file)');
  }
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let produced = 0;
  let crc = 0;
  const compressed = readPieces(source, dataStart, entry.compressedSize);
  const output = entry.method === 8 ? (source.inflate ?? fflateInflate)(compressed) : compressed;
  try {
    for await (const chunk of output) {
      produced += chunk.length;
      if (produced > bound) {
        throw new ZipEntryError(
          entry.size > limits.maxEntryBytes
            ? `refused: it inflates past the upload limit of ${limits.maxEntryBytes} bytes`
            : `refused: it inflates to more than the ${entry.size} bytes it declares`,
        );
      }
      crc = crc32(chunk, crc);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) {
        yield joined(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
  } catch (error) {
    if (error instanceof ZipEntryError || compressed.failure !== undefined) throw error;
    throw new ZipEntryError('refused: the zip file is damaged (its data does not inflate)');
  }
  if (produced !== entry.size) {
    throw new ZipEntryError(
      `refused: the zip file is damaged (${produced} bytes instead of the ${entry.size} it declares)`,
    );
  }
  if (crc !== entry.crc32) {
    throw new ZipEntryError('refused: the zip file is damaged (wrong CRC-32)');
  }
  if (pendingBytes > 0) yield joined(pending, pendingBytes);
}

/** The compressed bytes of an entry, READ_BYTES at a time; `failure` is set when a read throws. */
function readPieces(
  source: ZipSource,
  start: number,
  length: number,
): AsyncIterable<Uint8Array> & { failure?: unknown } {
  const pieces = {
    failure: undefined as unknown,
    async *[Symbol.asyncIterator]() {
      for (let read = 0; read < length;) {
        const size = Math.min(READ_BYTES, length - read);
        let piece: Uint8Array;
        try {
          piece = await source.read(start + read, size);
        } catch (error) {
          pieces.failure = error;
          throw error;
        }
        if (piece.length !== size) throw new ZipEntryError('refused: the zip file ended early');
        read += size;
        yield piece;
      }
    },
  };
  return pieces;
}

/**
 * fflate's inflater, fed PUSH_BYTES at a time so that one push makes at most ~1032 × PUSH_BYTES
 * of output (a zip bomb is stopped by the consumer after one push past its bound).
 */
async function* fflateInflate(deflated: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    out.push(chunk);
    if (final) ended = true;
  });
  let any = false;
  for await (const piece of deflated) {
    any = any || piece.length > 0;
    for (let at = 0; at < piece.length; at += PUSH_BYTES) {
      inflater.push(piece.subarray(at, at + PUSH_BYTES), false);
      yield* out;
      out = [];
    }
  }
  if (!any) throw new ZipEntryError('refused: the zip file is damaged (no compressed data)');
  if (!ended) inflater.push(new Uint8Array(0), true);
  yield* out;
  if (!ended) throw new ZipEntryError('refused: the zip file is damaged (its data ends early)');
}

/**
 * The entry's bytes, whole (see `entryChunks`: the same checks, and nothing is returned unless
 * every one of them passed).
 */
export async function inflateEntry(
  source: ZipSource,
  entry: ZipEntry,
  limits: Pick<ZipLimits, 'maxEntryBytes'> = DEFAULT_ZIP_LIMITS,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of entryChunks(source, entry, limits)) {
    chunks.push(chunk);
    length += chunk.length;
  }
  return joined(chunks, length);
}

function joined(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] ?? new Uint8Array(0);
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A `ZipSource` over bytes in memory (tests, small archives). */
export function bytesSource(bytes: Uint8Array): ZipSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

/** A `ZipSource` over a Blob (a dropped File): only the slices asked for are read. */
export function blobSource(blob: Blob): ZipSource {
  return {
    size: blob.size,
    read: async (offset, length) =>
      new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  };
}
