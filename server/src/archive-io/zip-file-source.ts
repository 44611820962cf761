// A `ZipSource` (shared/formats/zip-entries.ts) over a file opened in Node: only the ranges asked
// for are read, so a zip of any size is read by its directory and one slice of an entry at a time;
// entries are inflated by node:zlib (about 4x fflate's speed), streamed with backpressure.
import type { FileHandle } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { RawInflate, ZipSource } from '../../../shared/formats/zip-entries.ts';

/** Output of node:zlib at a time. */
const INFLATE_CHUNK_BYTES = 64 * 1024;

/** Reads `handle` (of `size` bytes); a read past its end comes back short. */
export function fileSource(handle: FileHandle, size: number): ZipSource {
  return {
    size,
    read: async (offset, length) => {
      const buffer = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
    inflate: zlibInflate,
  };
}

/**
 * node:zlib's raw inflate as the shared reader's `RawInflate`: what it holds at a time is its
 * stream buffers (a few 64 KiB chunks); when the reader stops, the streams are destroyed.
 */
const zlibInflate: RawInflate = (deflated) =>
  pipeline(
    Readable.from(deflated, { objectMode: false }),
    createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }),
    () => undefined,
  );
