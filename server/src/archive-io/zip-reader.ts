// Reads a `.zip` by its central directory (random access on a file), so that every entry is
// checked before a byte of any is used: its name, its kind (a symlink is refused), its declared
// sizes against the file and the caller's cap, duplicates. An entry's bytes are then read as a
// stream, inflated with backpressure, counted against the declared size (a zip bomb stops at its
// declared size, which the caller capped) and checked against the CRC.
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';

/** A zip that cannot be read as one, or an entry that is refused; the message says which. */
export class ZipFormatError extends Error {
  override name = 'ZipFormatError';
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  compressedSize: number;
  /** The declared size of the entry's bytes. */
  size: number;
  crc: number;
  localOffset: number;
}

export interface ZipLimits {
  /** Largest declared size of an entry, by name (the caller's cap). */
  maxEntryBytes: (name: string) => number;
  /** Most entries. */
  maxEntries: number;
  /** Largest central directory in bytes. */
  maxDirectoryBytes: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_LENGTH = 22;
const MAX_COMMENT = 0xffff;
const UNIX = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** A name as shown in a message: escaped, at most 80 characters. */
export function shownName(name: string): string {
  const json = JSON.stringify(name);
  return json.length > 82 ? `${json.slice(0, 80)}…"` : json;
}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, offset + read);
    if (bytesRead === 0) throw new ZipFormatError('the zip is truncated');
    read += bytesRead;
  }
  return buffer;
}

/**
 * The entries of the zip, each checked (see the file's comment). Throws ZipFormatError for a file
 * that is not a readable zip or has an entry that is refused.
 */
export async function readZipDirectory(
  handle: FileHandle,
  limits: ZipLimits,
  isAllowedName: (name: string) => boolean,
): Promise<ZipEntry[]> {
  const fileSize = (await handle.stat()).size;
  if (fileSize < EOCD_LENGTH) throw new ZipFormatError('this is not a zip file (too short)');
  const tailLength = Math.min(fileSize, EOCD_LENGTH + MAX_COMMENT);
  const tail = await readAt(handle, fileSize - tailLength, tailLength);
  let eocdAt = -1;
  for (let at = tail.length - EOCD_LENGTH; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    // The comment must run exactly to the end of the file.
    if (at + EOCD_LENGTH + tail.readUInt16LE(at + 20) !== tail.length) continue;
    eocdAt = at;
    break;
  }
  if (eocdAt < 0) throw new ZipFormatError('this is not a zip file (no end of central directory)');
  const eocdOffset = fileSize - tailLength + eocdAt;
  if (tail.readUInt16LE(eocdAt + 4) !== 0 || tail.readUInt16LE(eocdAt + 6) !== 0) {
    throw new ZipFormatError('multi-part zips are not supported');
  }
  let count = tail.readUInt16LE(eocdAt + 10);
  let directorySize = tail.readUInt32LE(eocdAt + 12);
  let directoryOffset = tail.readUInt32LE(eocdAt + 16);
  let directoryEnd = eocdOffset;
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    if (eocdOffset < 20) throw new ZipFormatError('the zip is corrupt (no Zip64 locator)');
    const locator = await readAt(handle, eocdOffset - 20, 20);
    if (locator.readUInt32LE(0) === ZIP64_LOCATOR_SIGNATURE) {
      const recordAt = Number(locator.readBigUInt64LE(8));
      if (recordAt + 56 > eocdOffset - 20) throw new ZipFormatError('the zip is corrupt (Zip64)');
      const record = await readAt(handle, recordAt, 56);
      if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) {
        throw new ZipFormatError('the zip is corrupt (no Zip64 end record)');
      }
      count = Number(record.readBigUInt64LE(32));
      directorySize = Number(record.readBigUInt64LE(40));
      directoryOffset = Number(record.readBigUInt64LE(48));
      directoryEnd = recordAt;
    }
  }
  if (count > limits.maxEntries) {
    throw new ZipFormatError(`the zip has ${count} entries; at most ${limits.maxEntries} are read`);
  }
  if (directorySize > limits.maxDirectoryBytes) {
    throw new ZipFormatError('the zip’s central directory is larger than the restore reads');
  }
  if (directoryOffset + directorySize > directoryEnd) {
    throw new ZipFormatError('the zip is corrupt (its central directory runs past its end)');
  }
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  while (at < directory.length) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      throw new ZipFormatError('the zip is corrupt (a central directory record is broken)');
    }
    const madeBy = directory.readUInt16LE(at + 4);
    const flags = directory.readUInt16LE(at + 8);
    const method = directory.readUInt16LE(at + 10);
    const crc = directory.readUInt32LE(at + 16);
    let compressedSize = directory.readUInt32LE(at + 20);
    let size = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const attributes = directory.readUInt32LE(at + 38);
    let localOffset = directory.readUInt32LE(at + 42);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > directory.length) throw new ZipFormatError('the zip is corrupt (a name runs past)');
    let name: string;
    try {
      name = decoder.decode(directory.subarray(nameStart, extraStart));
    } catch {
      throw new ZipFormatError('the zip has an entry whose name is not UTF-8');
    }
    // Zip64 sizes and offset (extra field 0x0001), each present only when its field is full.
    for (let extra = extraStart; extra + 4 <= extraStart + extraLength;) {
      const id = directory.readUInt16LE(extra);
      const length = directory.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        const take = () => {
          if (field + 8 > extra + 4 + length)
            throw new ZipFormatError('the zip is corrupt (Zip64)');
          const value = Number(directory.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localOffset === 0xffffffff) localOffset = take();
      }
      extra += 4 + length;
    }
    at = next;

    const shown = shownName(name);
    if (!isAllowedName(name)) {
      throw new ZipFormatError(`the zip has an entry that is not part of an export: ${shown}`);
    }
    if (madeBy >> 8 === UNIX && ((attributes >>> 16) & S_IFMT) === S_IFLNK) {
      throw new ZipFormatError(`the zip has a symbolic link: ${shown}`);
    }
    if (names.has(name)) throw new ZipFormatError(`the zip has ${shown} twice`);
    names.add(name);
    if ((flags & 1) !== 0) throw new ZipFormatError(`${shown} is encrypted`);
    if (method !== 0 && method !== 8) {
      throw new ZipFormatError(`${shown} is compressed with a method the restore does not read`);
    }
    const cap = limits.maxEntryBytes(name);
    if (size > cap) {
      throw new ZipFormatError(`${shown} declares ${size} bytes; at most ${cap} are accepted`);
    }
    if (method === 0 && compressedSize !== size) {
      throw new ZipFormatError(`${shown} is stored with two different sizes`);
    }
    if (localOffset + 30 + compressedSize > directoryOffset) {
      throw new ZipFormatError(`${shown} runs past the zip's data`);
    }
    entries.push({ name, method, compressedSize, size, crc, localOffset });
  }
  if (entries.length !== count) {
    throw new ZipFormatError('the zip is corrupt (its entry count does not match its directory)');
  }
  return entries;
}

/**
 * The bytes of an entry, as they are read: never more than its declared size (an entry that
 * inflates past it is stopped there), and an error when it ends short or its CRC differs.
 */
export async function* entryBytes(
  handle: FileHandle,
  path: string,
  entry: ZipEntry,
): AsyncGenerator<Buffer, void, undefined> {
  const header = await readAt(handle, entry.localOffset, 30);
  const shown = shownName(entry.name);
  if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    throw new ZipFormatError(`the zip is corrupt (no local header for ${shown})`);
  }
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  let total = 0;
  let crc = 0;
  if (entry.compressedSize > 0) {
    const source = createReadStream(path, {
      start,
      end: start + entry.compressedSize - 1,
      highWaterMark: 64 * 1024,
    });
    const bytes: Readable =
      entry.method === 8
        ? pipeline(source, createInflateRaw({ chunkSize: 64 * 1024 }), () => undefined)
        : source;
    try {
      for await (const chunk of bytes as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > entry.size) {
          throw new ZipFormatError(`${shown} holds more than its declared ${entry.size} bytes`);
        }
        crc = crc32(chunk, crc);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof ZipFormatError) throw error;
      throw new ZipFormatError(`${shown} cannot be read: it is corrupt`, { cause: error });
    } finally {
      source.destroy();
      bytes.destroy();
    }
  }
  if (total !== entry.size) {
    throw new ZipFormatError(`${shown} ends before its declared ${entry.size} bytes`);
  }
  if (crc >>> 0 !== entry.crc) throw new ZipFormatError(`${shown} is corrupt (its CRC differs)`);
}
