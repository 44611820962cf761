// Where a page's original file is kept: a small upload's bytes in the database, written in the
// transaction of its record (migration 13); any other file in the blob store (blobs.ts), as is
// every file stored before that version. Readers ask here and need not know which.
import type { Database, Statement } from 'better-sqlite3';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobStore } from './blobs.ts';

/**
 * Uploads up to this size keep their bytes in the database. SQLite reads and writes blobs this
 * small faster than the file system does its files (sqlite.org's "Internal Versus External BLOBs":
 * up to ~100 kB at its default page size), and a file's durable write (create, write, sync, rename,
 * its folder's sync) was most of a small upload's cost. Larger files stay files: the database, its
 * log and its copies stay small.
 */
export const ORIGINAL_IN_DATABASE_MAX_BYTES = 64 * 1024;

/** The pieces an original is read in when a reader does not say. */
const PIECE_BYTES = 64 * 1024;

/** A page's original file: its size, and its bytes read in pieces when asked for. */
export interface Original {
  size: number;
  /**
   * The bytes in pieces of `pieceBytes` (the last one shorter), read as the stream is; with
   * `range`, only those from `start` up to (not including) `end`, which the caller keeps within
   * `size`.
   */
  stream(pieceBytes?: number, range?: ByteRange): Readable;
  /** The whole file in one buffer (one read of a file, no pieces to join). */
  bytes(): Promise<Buffer>;
  /**
   * Each range's bytes (kept within `size`), in one buffer each, read in order with the file
   * opened once.
   */
  read(ranges: readonly ByteRange[]): AsyncIterable<Buffer>;
}

/** Bytes `start` (included) to `end` (excluded) of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The original files of pages, wherever each is kept. */
export class Originals {
  private readonly selectSize: Statement<[string], number>;
  private readonly selectBytes: Statement<[string], Buffer>;
  private readonly selectPartIndex: Statement<[string], string>;
  private readonly replacePartIndex: Statement<[string, string]>;

  constructor(
    db: Database,
    private readonly blobs: BlobStore,
  ) {
    // length() of a blob is read from its row's header: the bytes are not loaded for it.
    this.selectSize = db
      .prepare<[string], number>('SELECT length(bytes) FROM webpage_originals WHERE webpage_id = ?')
      .pluck();
    this.selectBytes = db
      .prepare<[string], Buffer>('SELECT bytes FROM webpage_originals WHERE webpage_id = ?')
      .pluck();
    this.selectPartIndex = db
      .prepare<[string], string>('SELECT part_index FROM webpage_part_indexes WHERE webpage_id = ?')
      .pluck();
    this.replacePartIndex = db.prepare(
      'INSERT OR REPLACE INTO webpage_part_indexes (webpage_id, part_index) VALUES (?, ?)',
    );
  }

  /** The index of parts kept with MHTML page `id` (migration 15), if it has one. */
  partIndex(id: string): string | undefined {
    return this.selectPartIndex.get(id);
  }

  /** Keeps `partIndex` as page `id`'s index of parts, in place of any it had. */
  keepPartIndex(id: string, partIndex: string): void {
    this.replacePartIndex.run(id, partIndex);
  }

  /** The original of page `id`, or undefined when it is nowhere (a damaged store). */
  async find(id: string): Promise<Original | undefined> {
    const size = this.selectSize.get(id);
    if (size !== undefined) {
      return {
        size,
        stream: (pieceBytes = PIECE_BYTES, range?: ByteRange) =>
          Readable.from(this.piecesOf(id, pieceBytes, range), { objectMode: false }),
        bytes: async () => this.selectBytes.get(id) ?? Buffer.alloc(0),
        read: (ranges) => rangesIn(this.selectBytes.get(id) ?? Buffer.alloc(0), ranges),
      };
    }
    const path = this.blobs.pathOf(id);
    try {
      const { size: fileSize } = await stat(path);
      return {
        size: fileSize,
        stream: (pieceBytes = PIECE_BYTES, range?: ByteRange) =>
          range !== undefined && range.end <= range.start
            ? Readable.from([])
            : createReadStream(path, {
                highWaterMark: pieceBytes,
                // createReadStream's `end` is the last byte read, included.
                ...(range && { start: range.start, end: range.end - 1 }),
              }),
        bytes: () => readFile(path),
        read: (ranges) => readRanges(path, ranges),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async *piecesOf(
    id: string,
    pieceBytes: number,
    range?: ByteRange,
  ): AsyncGenerator<Buffer> {
    const whole = this.selectBytes.get(id) ?? Buffer.alloc(0);
    const bytes = range ? whole.subarray(range.start, range.end) : whole;
    for (let start = 0; start < bytes.length; start += pieceBytes) {
      yield bytes.subarray(start, start + pieceBytes);
    }
  }
}

/** Each range of a file already in memory, as `Original.read` gives them. */
export async function* rangesIn(
  bytes: Buffer,
  ranges: readonly ByteRange[],
): AsyncGenerator<Buffer> {
  for (const { start, end } of ranges) yield bytes.subarray(start, end);
}

/** Each range of the file at `path`, read in order with the file opened once. */
async function* readRanges(path: string, ranges: readonly ByteRange[]): AsyncGenerator<Buffer> {
  if (ranges.length === 0) return;
  const file = await open(path, 'r');
  try {
    for (const { start, end } of ranges) {
      const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await file.read(
          buffer,
          filled,
          buffer.length - filled,
          start + filled,
        );
        if (bytesRead === 0) throw new Error(`${path} ends before byte ${end}`);
        filled += bytesRead;
      }
      yield buffer;
    }
  } finally {
    await file.close();
  }
}
