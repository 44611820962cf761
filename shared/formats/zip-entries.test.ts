import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import {
  bytesSource,
  checkEntryName,
  entryChunks,
  inflateEntry,
  readZipDirectory,
  ZipEntryError,
  ZipError,
} from './zip-entries.ts';
import type { ZipEntry } from './zip-entries.ts';
import { buildZip, FILE_MODE, SYMLINK_MODE } from './zip-test-support.ts';

const page = (title: string) => strToU8(`<!doctype html><title>${title}</title><p>${title}</p>`);

function byPath(entries: readonly ZipEntry[], path: string): ZipEntry {
  const entry = entries.find((candidate) => candidate.path === path || candidate.rawName === path);
  if (!entry) throw new Error(`no entry ${path}`);
  return entry;
}

describe('checkEntryName', () => {
  it.each([
    ['../evil.html', 'leaves'],
    ['a/../../evil.html', 'leaves'],
    ['a\\..\\evil.html', 'leaves'],
    ['/etc/passwd', 'absolute'],
    ['\\server\\share.html', 'absolute'],
    ['C:\\Windows\\x.html', 'drive letter'],
    ['c:x.html', 'drive letter'],
    ['a\0b.html', 'NUL'],
    ['', 'empty'],
  ])('refuses %j (%s)', (name, why) => {
    const result = checkEntryName(name);
    expect('problem' in result && result.problem).toContain(why);
  });

  it('keeps relative names, dropping . and empty segments', () => {
    expect(checkEntryName('./a//b\\c.html')).toEqual({ segments: ['a', 'b', 'c.html'] });
    expect(checkEntryName('a..b/..c.html')).toEqual({ segments: ['a..b', '..c.html'] });
  });
});

describe('readZipDirectory and inflateEntry', () => {
  it('read a zip made by zipSync: nested paths, stored and deflated entries, directories', async () => {
    const zip = zipSync({
      'pages/one.html': page('One'),
      'pages/deep/two.mhtml': [strToU8('MIME-Version: 1.0\r\n'), { level: 0 }],
      'empty/': new Uint8Array(0),
      'notes.txt': strToU8('hello'),
    });
    const source = bytesSource(zip);
    const entries = await readZipDirectory(source);
    expect(entries.map((entry) => [entry.path, entry.kind, entry.problem])).toEqual([
      ['pages/one.html', 'file', null],
      ['pages/deep/two.mhtml', 'file', null],
      ['empty', 'directory', null],
      ['notes.txt', 'file', null],
    ]);
    expect(await inflateEntry(source, byPath(entries, 'pages/one.html'))).toEqual(page('One'));
    expect(await inflateEntry(source, byPath(entries, 'pages/deep/two.mhtml'))).toEqual(
      strToU8('MIME-Version: 1.0\r\n'),
    );
  });

  it('refuses a `../` entry and an absolute one, and keeps the others', async () => {
    const zip = zipSync({
      '../evil.html': page('x'),
      '/abs.html': page('y'),
      'ok.html': page('z'),
    });
    const entries = await readZipDirectory(bytesSource(zip));
    expect(byPath(entries, '../evil.html').problem).toMatch(/leaves the archive's folder/);
    expect(byPath(entries, '/abs.html').problem).toMatch(/absolute path/);
    expect(byPath(entries, 'ok.html').problem).toBeNull();
    await expect(inflateEntry(bytesSource(zip), byPath(entries, '../evil.html'))).rejects.toThrow(
      ZipEntryError,
    );
  });

  it('refuses a symlink entry (Unix mode S_IFLNK in the external attributes)', async () => {
    const zip = buildZip([
      { name: 'link.html', data: strToU8('/etc/passwd'), method: 0, unixMode: SYMLINK_MODE },
      { name: 'page.html', data: page('ok'), unixMode: FILE_MODE },
    ]);
    const source = bytesSource(zip);
    const entries = await readZipDirectory(source);
    expect(byPath(entries, 'link.html')).toMatchObject({
      kind: 'symlink',
      problem: 'refused: it is a symbolic link',
    });
    await expect(inflateEntry(source, byPath(entries, 'link.html'))).rejects.toThrow(
      /symbolic link/,
    );
    expect(await inflateEntry(source, byPath(entries, 'page.html'))).toEqual(page('ok'));
  });

  it('refuses a 10 GB declared size (Zip64 extra field) without reading it', async () => {
    const zip = buildZip([{ name: 'huge.html', data: page('small'), declaredSize: 10 * 2 ** 30 }]);
    const reads: number[] = [];
    const source = bytesSource(zip);
    const entries = await readZipDirectory({
      size: source.size,
      read: (offset, length) => {
        reads.push(length);
        return source.read(offset, length);
      },
    });
    expect(entries[0]?.size).toBe(10 * 2 ** 30);
    expect(entries[0]?.problem).toBe(
      `refused: it declares ${10 * 2 ** 30} bytes, over the upload limit of ${200 * 1024 * 1024}`,
    );
    await expect(inflateEntry(source, entries[0]!)).rejects.toThrow(/declares/);
  });

  it('stops a zip bomb at the limit, whatever the header says', async () => {
    const zeros = new Uint8Array(4 * 1024 * 1024);
    const honest = zipSync({ 'bomb.html': zeros });
    expect(honest.length).toBeLessThan(100_000);
    const limits = { maxEntryBytes: 256 * 1024, maxEntries: 10 };
    const entries = await readZipDirectory(bytesSource(honest), limits);
    expect(entries[0]?.problem).toMatch(/declares 4194304 bytes/);

    // The same data declaring 1000 bytes: the inflate stops just past 1000 bytes of output.
    const lying = buildZip([{ name: 'bomb.html', data: zeros, declaredSize: 1000 }]);
    const [entry] = await readZipDirectory(bytesSource(lying), limits);
    expect(entry?.problem).toBeNull();
    await expect(inflateEntry(bytesSource(lying), entry!, limits)).rejects.toThrow(
      'refused: it inflates to more than the 1000 bytes it declares',
    );

    // Declaring exactly the limit: stops at the limit.
    const atLimit = buildZip([
      { name: 'bomb.html', data: zeros, declaredSize: limits.maxEntryBytes },
    ]);
    const [big] = await readZipDirectory(bytesSource(atLimit), limits);
    await expect(inflateEntry(bytesSource(atLimit), big!, limits)).rejects.toThrow(
      /more than the 262144 bytes it declares/,
    );
  });

  it('gives a ZipError for a corrupt archive, before any entry', async () => {
    const zip = zipSync({ 'a.html': page('a'), 'b.html': page('b') });
    await expect(readZipDirectory(bytesSource(zip.subarray(0, zip.length - 30)))).rejects.toThrow(
      ZipError,
    );
    await expect(readZipDirectory(bytesSource(strToU8('not a zip at all')))).rejects.toThrow(
      /not a zip file/,
    );
    await expect(readZipDirectory(bytesSource(new Uint8Array(0)))).rejects.toThrow(ZipError);
    // The central directory's offset pointing past the file.
    const moved = zip.slice();
    const end = moved.length - 22;
    moved[end + 16] = 0xff;
    moved[end + 17] = 0xff;
    moved[end + 18] = 0xff;
    await expect(readZipDirectory(bytesSource(moved))).rejects.toThrow(/damaged/);
  });

  it('refuses an entry whose data is damaged (bad deflate data, wrong CRC-32)', async () => {
    const data = page('the page text '.repeat(50));
    const garbage = buildZip([{ name: 'a.html', data, compressed: new Uint8Array(64).fill(0xff) }]);
    const [bad] = await readZipDirectory(bytesSource(garbage));
    await expect(inflateEntry(bytesSource(garbage), bad!)).rejects.toThrow(/damaged/);

    const zip = zipSync({ 'a.html': [data, { level: 0 }] });
    const flipped = zip.slice();
    const [entry] = await readZipDirectory(bytesSource(flipped));
    const at = 30 + 'a.html'.length + 10; // a byte of the stored data
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    await expect(inflateEntry(bytesSource(flipped), entry!)).rejects.toThrow(/wrong CRC-32/);
  });

  it('entryChunks hands an entry on in pieces as it inflates, never whole', async () => {
    let seed = 7;
    const words = Array.from({ length: 150_000 }, () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return `w${seed % 5000}`;
    });
    const data = strToU8(words.join(' '));
    for (const level of [0, 6] as const) {
      const zip = zipSync({ 'big.html': [data, { level }] });
      const source = bytesSource(zip);
      const [entry] = await readZipDirectory(source);
      const pieces: Uint8Array[] = [];
      for await (const piece of entryChunks(source, entry!)) pieces.push(piece);
      expect(pieces.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(data.length / 3);
      const whole = new Uint8Array(data.length);
      let at = 0;
      for (const piece of pieces) {
        whole.set(piece, at);
        at += piece.length;
      }
      expect(at).toBe(data.length);
      expect(whole.every((byte, index) => byte === data[index])).toBe(true);
    }
  });

  it('refuses a stored entry whose two sizes differ before reading it', async () => {
    const zip = buildZip([{ name: 'a.html', data: page('a'), method: 0, declaredSize: 3 }]);
    const [entry] = await readZipDirectory(bytesSource(zip));
    expect(entry?.problem).toMatch(/stored with two different sizes/);
  });

  it('refuses a part of a multi-part zip', async () => {
    const zip = zipSync({ 'a.html': page('a') });
    const part = zip.slice();
    part[part.length - 22 + 4] = 1; // the number of this disk
    await expect(readZipDirectory(bytesSource(part))).rejects.toThrow(/multi-part/);
  });

  it('bounds the number of entries', async () => {
    const zip = zipSync({ 'a.html': page('a'), 'b.html': page('b'), 'c.html': page('c') });
    await expect(
      readZipDirectory(bytesSource(zip), { maxEntries: 2, maxEntryBytes: 1000 }),
    ).rejects.toThrow('the zip file has 3 entries, more than the 2 an import takes');
  });

  it('property: a mutated zip gives entries or a ZipError, and each entry bytes or a ZipEntryError', async () => {
    const zip = zipSync({
      'a/one.html': page('one'),
      'two.mhtml': page('two'),
      'd/': new Uint8Array(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(zip.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.nat(zip.length),
        async (changes, cut) => {
          const bytes = zip.slice(0, Math.max(cut, zip.length - 40));
          for (const [at, value] of changes) if (at < bytes.length) bytes[at] = value;
          const limits = { maxEntryBytes: 4096, maxEntries: 100 };
          let entries: ZipEntry[];
          try {
            entries = await readZipDirectory(bytesSource(bytes), limits);
          } catch (error) {
            expect(error).toBeInstanceOf(ZipError);
            return;
          }
          for (const entry of entries) {
            try {
              const out = await inflateEntry(bytesSource(bytes), entry, limits);
              expect(out.length).toBeLessThanOrEqual(limits.maxEntryBytes);
            } catch (error) {
              expect(error).toBeInstanceOf(ZipEntryError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
