// A `ZipSource` (shared/formats/zip-entries.ts) over a file opened in Node: only the ranges asked
// for are read, so a zip of any size is read by its directory and one slice of an entry at a time.
import type { FileHandle } from 'node:fs/promises';
import type { ZipSource } from '../../../shared/formats/zip-entries.ts';

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
  };
}
