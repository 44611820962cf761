import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  entryChunks,
  inflateEntry,
  readZipDirectory,
  ZipEntryError,
  type ZipEntry,
  type ZipSource,
} from '../../../shared/formats/zip-entries.ts';
import { buildZip } from '../../../shared/formats/zip-test-support.ts';
import { fileSource } from './zip-file-source.ts';

const folder = mkdtempSync(join(tmpdir(), 'folio-zip-source-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const LIMITS = { maxEntryBytes: 1 << 21, maxEntries: 10 };

/** The first entry of `bytes` written to a file, read through `fileSource` (node:zlib inflating). */
async function withEntry(
  bytes: Uint8Array,
  run: (source: ZipSource, entry: ZipEntry) => Promise<void>,
): Promise<void> {
  const path = join(folder, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  const handle = await open(path, 'r');
  try {
    const source = fileSource(handle, bytes.length);
    const [entry] = await readZipDirectory(source, LIMITS);
    await run(source, entry!);
  } finally {
    await handle.close();
  }
}

describe('fileSource: the shared reader over a file, inflating with node:zlib', () => {
  it('streams an entry in pieces, the same bytes as written', async () => {
    const data = strToU8('<p>folio page text</p>\n'.repeat(40_000));
    await withEntry(zipSync({ 'a.html': data }), async (source, entry) => {
      const pieces: Uint8Array[] = [];
      for await (const piece of entryChunks(source, entry, LIMITS)) pieces.push(piece);
      expect(pieces.length).toBeGreaterThan(3);
      expect(Buffer.concat(pieces).equals(Buffer.from(data))).toBe(true);
    });
  });

  it('stops a bomb at its declared size, and refuses damaged or cut deflate data', async () => {
    const zeros = new Uint8Array(4 * 1024 * 1024);
    const bomb = buildZip([{ name: 'b.html', data: zeros, declaredSize: 1000 }]);
    await withEntry(bomb, async (source, entry) => {
      await expect(inflateEntry(source, entry, LIMITS)).rejects.toThrow(
        'refused: it inflates to more than the 1000 bytes it declares',
      );
    });
    const data = strToU8('the page text '.repeat(500));
    const garbage = buildZip([{ name: 'g.html', data, compressed: new Uint8Array(64).fill(0xff) }]);
    await withEntry(garbage, async (source, entry) => {
      await expect(inflateEntry(source, entry)).rejects.toThrow(/damaged/);
    });
    const deflated = deflateSync(data);
    const cut = buildZip([{ name: 'c.html', data, compressed: deflated.subarray(0, 20) }]);
    await withEntry(cut, async (source, entry) => {
      await expect(inflateEntry(source, entry)).rejects.toBeInstanceOf(ZipEntryError);
    });
  });
});
