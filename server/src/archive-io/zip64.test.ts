import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, Zip, ZipPassThrough } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource, readZipDirectory } from '../../../shared/formats/zip-entries.ts';
import { fileSource } from './zip-file-source.ts';
import { withZip64End } from './zip64.ts';

/** A zip of `count` one-byte entries, written as the export writes it. */
function zipOf(count: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk, final) => {
    if (error) throw error;
    chunks.push(final && count > 0xffff ? withZip64End(chunk, count) : chunk);
  });
  for (let index = 0; index < count; index++) {
    const entry = new ZipPassThrough(`e${index}`);
    zip.add(entry);
    entry.push(new Uint8Array([index & 0xff]), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

describe('an export of more than 65,535 entries', () => {
  it('ends with a Zip64 record that readers take the true count from', async () => {
    const count = 70_000;
    const bytes = zipOf(count);
    const folder = mkdtempSync(join(tmpdir(), 'folio-zip64-'));
    try {
      const path = join(folder, 'big.zip');
      writeFileSync(path, bytes);
      const handle = await open(path, 'r');
      try {
        const entries = await readZipDirectory(fileSource(handle, bytes.length), {
          maxEntryBytes: 10,
          maxEntries: 100_000,
        });
        expect(entries).toHaveLength(count);
        expect(entries.at(-1)?.rawName).toBe(`e${count - 1}`);
        expect(entries.every((entry) => entry.problem === null)).toBe(true);
      } finally {
        await handle.close();
      }
      // Another reader (fflate's) agrees.
      const files = unzipSync(bytes);
      expect(Object.keys(files)).toHaveLength(count);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('exactly 65,535 entries: a classic end record whose full count is the true one', async () => {
    const count = 0xffff;
    const bytes = zipOf(count);
    expect(Buffer.from(bytes).readUInt16LE(bytes.length - 12)).toBe(count);
    const entries = await readZipDirectory(bytesSource(bytes), {
      maxEntryBytes: 10,
      maxEntries: 100_000,
    });
    expect(entries).toHaveLength(count);
  });

  it('a classic end record is left as it is below the limit', () => {
    const bytes = zipOf(3);
    expect(Buffer.from(bytes).readUInt16LE(bytes.length - 12)).toBe(3);
    expect(Object.keys(unzipSync(bytes))).toEqual(['e0', 'e1', 'e2']);
  });
});
