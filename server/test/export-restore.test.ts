import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreArchive, RestoreRefused } from '../src/archive-io/restore-archive.ts';
import { REPO_ROOT } from '../src/config.ts';
import { parsePool } from '../src/parse/parse-pool.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { makeHtml } from '../../test/support/archives.ts';
import { call, fails, ok, operationUrl, upload } from './support/api.ts';
import { readStoredOriginal, removeStoredOriginal, storedOriginals } from './support/originals.ts';
import {
  archiveSnapshot,
  blobSha256,
  EXPORT_PAGES,
  seedExportArchive,
} from './support/export-seed.ts';
import { seed } from './support/seed.ts';
import { runScript } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let source: TestServer;
let zipPath: string;
let zipBytes: Buffer;
let work: string;

async function exportZip(server: TestServer, body?: unknown): Promise<Response> {
  const { url } = operationUrl(server, 'exportArchive');
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'folio-export-test-'));
  source = await startTestServer();
  await seedExportArchive(source);
  const response = await exportZip(source);
  expect(response.status).toBe(200);
  zipBytes = Buffer.from(await response.arrayBuffer());
  zipPath = join(work, 'export.zip');
  writeFileSync(zipPath, zipBytes);
  parsePool.retain();
});

afterAll(async () => {
  await source.close();
  await parsePool.release();
  rmSync(work, { recursive: true, force: true });
});

const OPTIONS = { maxOriginalBytes: 200 * 1024 * 1024, parseTimeoutMs: 30_000, now: Date.now };

async function withFreshStore<T>(run: (store: Store, dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(work, 'data-'));
  const store = await openStore(dataDir);
  try {
    return await run(store, dataDir);
  } finally {
    await store.close();
  }
}

function storeIsEmpty(store: Store, dataDir: string): void {
  expect(store.db.prepare('SELECT count(*) FROM webpages').pluck().get()).toBe(0);
  expect(store.db.prepare('SELECT count(*) FROM highlights').pluck().get()).toBe(0);
  expect(store.db.prepare('SELECT count(*) FROM views').pluck().get()).toBe(0);
  const blobs = readdirSync(join(dataDir, 'blobs'), { recursive: true, withFileTypes: true });
  expect(blobs.filter((entry) => entry.isFile())).toEqual([]);
}

describe('export', () => {
  it('answers a dated zip with the JSON, the bookmarks and every original under its id', async () => {
    const response = await exportZip(source);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="folio-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names.filter((name) => name.startsWith('originals/'))).toHaveLength(EXPORT_PAGES.length);
    expect(names).toContain('folio-export.json');
    expect(names).toContain('bookmarks.html');
    const json = JSON.parse(new TextDecoder().decode(files['folio-export.json'])) as {
      format: string;
      webpages: { id: string; ext: string; file: string; highlights: unknown[] }[];
      views: unknown[];
    };
    expect(json.format).toBe('folio-export');
    expect(json.webpages).toHaveLength(EXPORT_PAGES.length);
    expect(json.views).toHaveLength(2);
    for (const page of json.webpages) {
      expect(page.file).toBe(`originals/${page.id}.${page.ext}`);
      expect(blobSha256(source.dataDir, page.id)).toBe(page.id);
      expect(createHash('sha256').update(files[page.file]!).digest('hex')).toBe(page.id);
    }
    const bookmarks = new TextDecoder().decode(files['bookmarks.html']);
    expect(bookmarks).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(bookmarks).toContain(
      '<A HREF="https://example.com/a?x=1&amp;y=%222%22" ADD_DATE="1704153600" ' +
        'TAGS="reading,Zürich &quot;quotes&quot;">An HTML page &amp; &lt;friends&gt;</A>',
    );
  });

  it('exports a view (its pages and itself) and a selection of ids', async () => {
    const views = await ok(source, 'listViews');
    const reading = views.find((view) => view.title === 'Reading')!;
    const byView = unzipSync(
      new Uint8Array(await (await exportZip(source, { viewId: reading.id })).arrayBuffer()),
    );
    const viewJson = JSON.parse(new TextDecoder().decode(byView['folio-export.json'])) as {
      webpages: { title: string }[];
      views: { id: string }[];
    };
    expect(viewJson.views.map((view) => view.id)).toEqual([reading.id]);
    expect(viewJson.webpages.map((page) => page.title)).toEqual([
      'An HTML page & <friends>',
      'An MHTML page',
    ]);

    const list = await ok(source, 'listWebpages', { query: { sort: 'first_add_time_asc' } });
    const ids = [list.webpages[2]!.id];
    const bySelection = unzipSync(
      new Uint8Array(await (await exportZip(source, { ids })).arrayBuffer()),
    );
    expect(Object.keys(bySelection).filter((name) => name.startsWith('originals/'))).toEqual([
      `originals/${ids[0]}.webarchive`,
    ]);
  });

  it('refuses unknown views and pages, both at once, and a request without the token', async () => {
    expect((await exportZip(source, { viewId: 'nope' })).status).toBe(404);
    expect((await exportZip(source, { ids: ['0'.repeat(64)] })).status).toBe(404);
    expect((await exportZip(source, { ids: [], viewId: 'x' })).status).toBe(400);
    expect((await exportZip(source, { extra: 1 })).status).toBe(400);
    const { url } = operationUrl(source, 'exportArchive');
    expect((await fetch(url, { method: 'POST' })).status).toBe(401);
  });

  it('a download link works once, without the token, and not after it expires', async () => {
    const link = await ok(source, 'createExportLink', { body: {} });
    expect(link.url).toMatch(/^\/downloads\/exports\/[A-Za-z0-9_-]{43}$/);
    const first = await fetch(`${source.url}${link.url}`);
    expect(first.status).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(await first.arrayBuffer())))).toContain(
      'folio-export.json',
    );
    expect((await fetch(`${source.url}${link.url}`)).status).toBe(404);
    expect((await fetch(`${source.url}/downloads/exports/${'A'.repeat(43)}`)).status).toBe(404);
    const late = await ok(source, 'createExportLink', { body: {} });
    source.clock.advance(61_000);
    expect((await fetch(`${source.url}${late.url}`)).status).toBe(404);
    await fails(source, 'createExportLink', 404, { body: { viewId: 'nope' } });
  });

  it('leaves out a page whose original is missing from the store, and names it', async () => {
    const damaged = await startTestServer();
    try {
      const seeded = await seed(damaged, EXPORT_PAGES.slice(0, 2));
      removeStoredOriginal(damaged.dataDir, seeded.id('html'));
      const files = unzipSync(new Uint8Array(await (await exportZip(damaged)).arrayBuffer()));
      const json = JSON.parse(new TextDecoder().decode(files['folio-export.json'])) as {
        missingOriginals: string[];
        webpages: { id: string }[];
      };
      expect(json.missingOriginals).toEqual([seeded.id('html')]);
      expect(json.webpages.map((page) => page.id)).toEqual([seeded.id('mhtml')]);
      expect(Object.keys(files).filter((name) => name.startsWith('originals/'))).toHaveLength(1);
    } finally {
      await damaged.close();
    }
  });

  it('is a 404 on a server that answers as HamsterBase', async () => {
    const hamster = await startTestServer({ asHamsterBase: true });
    try {
      expect((await exportZip(hamster)).status).toBe(404);
      const response = await call(hamster, 'createExportLink', { body: {} });
      expect(response.status).toBe(404);
    } finally {
      await hamster.close();
    }
  });
});

describe('restore', () => {
  it('gives back the same archive: fields, originals byte for byte, highlight and view ids', async () => {
    const expected = await archiveSnapshot(source);
    const dataDir = mkdtempSync(join(work, 'restored-'));
    const store = await openStore(dataDir);
    const report = await restoreArchive(store, zipPath, OPTIONS);
    // An MHTML page comes back with its index of parts, as an upload keeps it (its preview reads
    // only its small parts from the first view).
    const indexed = store.db
      .prepare<[], { ext: string; indexed: number }>(
        `SELECT w.ext, i.part_index IS NOT NULL AS indexed
         FROM webpages w LEFT JOIN webpage_part_indexes i ON i.webpage_id = w.id`,
      )
      .all();
    expect(indexed.filter((row) => row.ext === 'mhtml').length).toBeGreaterThan(0);
    for (const row of indexed) expect(row.indexed === 1).toBe(row.ext === 'mhtml');
    await store.close();
    expect(report).toMatchObject({
      total: 4,
      restored: 4,
      skipped: [],
      failed: [],
      views: { restored: 2 },
    });
    const restored = await startTestServer({ dataDir, keepDataDir: false });
    try {
      const actual = await archiveSnapshot(restored);
      expect(actual.webpages).toEqual(expected.webpages);
      expect(actual.views).toEqual(expected.views);
      expect(actual.sha256).toEqual(expected.sha256);
      for (const [id, sha] of actual.sha256) expect(sha).toBe(id);
      expect(expected.webpages.flatMap((page) => page.highlights)).toHaveLength(3);
      // The views select the same pages, and search finds restored text.
      for (const view of expected.views) {
        const before = await ok(source, 'listViewWebpages', { params: { view_id: view.id } });
        const after = await ok(restored, 'listViewWebpages', { params: { view_id: view.id } });
        expect(after.webpages.map((page) => page.id)).toEqual(
          before.webpages.map((page) => page.id),
        );
      }
      const hits = await ok(restored, 'searchWebpages', { query: { q: 'Text of mhtml' } });
      expect(hits.webpages.length).toBeGreaterThan(0);
    } finally {
      await restored.close();
    }
  });

  it('keeps a small original in the database and a larger one in the blob store, as uploads do', async () => {
    const server = await startTestServer();
    try {
      const small = makeHtml({ title: 'Small' });
      const large = makeHtml({ title: 'Large', body: `<p>${'large '.repeat(20_000)}</p>` });
      const [smallId, largeId] = [
        (await upload(server, small, 'html')).id,
        (await upload(server, large, 'html')).id,
      ];
      const zip = join(work, 'two-sizes.zip');
      writeFileSync(zip, new Uint8Array(await (await exportZip(server)).arrayBuffer()));
      await withFreshStore(async (store, dataDir) => {
        expect(await restoreArchive(store, zip, OPTIONS)).toMatchObject({
          restored: 2,
          failed: [],
        });
        expect(storedOriginals(dataDir)).toEqual({
          inDatabase: [smallId],
          files: [largeId],
          temp: [],
        });
        expect(readStoredOriginal(dataDir, smallId)?.equals(small)).toBe(true);
        expect(readStoredOriginal(dataDir, largeId)?.equals(large)).toBe(true);
      });
    } finally {
      await server.close();
    }
  });

  it('into a non-empty archive skips the pages it has and reports them; twice is a no-op', async () => {
    await withFreshStore(async (store) => {
      const first = await restoreArchive(store, zipPath, OPTIONS);
      expect(first.restored).toBe(4);
      const second = await restoreArchive(store, zipPath, OPTIONS);
      expect(second).toMatchObject({ restored: 0, failed: [], views: { restored: 0, skipped: 2 } });
      expect(second.skipped).toHaveLength(4);
      expect(store.db.prepare('SELECT count(*) FROM highlights').pluck().get()).toBe(3);
      expect(store.db.prepare('SELECT count(*) FROM views').pluck().get()).toBe(2);
    });
  });

  it('with the CLI: npm run restore -- <zip> --data-dir <dir>', async () => {
    const dataDir = join(work, 'cli-data');
    const result = await runScript(
      join(REPO_ROOT, 'server/src/archive-io/restore-cli.ts'),
      [zipPath, '--data-dir', dataDir],
      {},
      60_000,
    );
    expect(result.stdout).toMatch(/Restored 4 of 4 pages/);
    expect(result.code).toBe(0);
    for (const id of (await archiveSnapshot(source)).sha256.keys())
      expect(blobSha256(dataDir, id)).toBe(id);
    const refused = await runScript(
      join(REPO_ROOT, 'server/src/archive-io/restore-cli.ts'),
      [join(work, 'missing.zip'), '--data-dir', dataDir],
      {},
      60_000,
    );
    expect(refused.code).toBe(2);
  });

  describe('refuses, leaving the archive unchanged,', () => {
    const json = () => unzipSync(new Uint8Array(zipBytes))['folio-export.json']!;

    async function expectRefused(bytes: Uint8Array, message: RegExp, options = OPTIONS) {
      const path = join(work, `bad-${Math.random().toString(36).slice(2)}.zip`);
      writeFileSync(path, bytes);
      await withFreshStore(async (store, dataDir) => {
        await expect(restoreArchive(store, path, options)).rejects.toThrow(message);
        await expect(restoreArchive(store, path, options)).rejects.toBeInstanceOf(RestoreRefused);
        storeIsEmpty(store, dataDir);
      });
    }

    it('a corrupt zip (cut short, or not a zip)', async () => {
      await expectRefused(
        zipBytes.subarray(0, zipBytes.length - 100),
        /not a zip file|corrupt|truncated/,
      );
      await expectRefused(strToU8('just text, no zip'), /not a zip file/);
      // A byte of the JSON flipped: its CRC (or its inflate) fails before anything is written.
      const files = unzipSync(new Uint8Array(zipBytes));
      const broken = Buffer.from(zipSync(files, { level: 0 }));
      const at = broken.indexOf('"format"');
      broken.writeUInt8(broken.readUInt8(at + 2) ^ 0x20, at + 2);
      await expectRefused(broken, /damaged \(wrong CRC-32\)|not a Folio export/);
    });

    it('a path-traversal entry, an absolute name, an unknown name', async () => {
      for (const name of [
        '../evil.html',
        '/etc/passwd',
        'originals/../../x.html',
        'originals/abc.html',
      ]) {
        await expectRefused(
          zipSync({ 'folio-export.json': json(), [name]: strToU8('x') }),
          /not part of an export/,
        );
      }
    });

    it('a symlink entry, made on Unix (host 3) or macOS (host 19)', async () => {
      const files = unzipSync(new Uint8Array(zipBytes));
      const [first] = Object.keys(files).filter((name) => name.startsWith('originals/'));
      for (const os of [3, 19]) {
        const link = zipSync({
          ...files,
          [first!]: [strToU8('/etc/passwd'), { os, attrs: (0o120777 << 16) >>> 0 }],
        });
        await expectRefused(link, /symbolic link/);
      }
    });

    it('duplicate names', async () => {
      const twice = Buffer.from(
        zipSync({
          'folio-export.json': json(),
          'bookmarks.html': strToU8('a'),
          'bookmarks.htmX': strToU8('b'),
        }),
      );
      let at = twice.indexOf('bookmarks.htmX');
      while (at >= 0) {
        twice.write('bookmarks.html', at, 'latin1');
        at = twice.indexOf('bookmarks.htmX');
      }
      await expectRefused(twice, /twice/);
    });

    it('an entry larger than the server accepts, and one larger than it declares', async () => {
      await expectRefused(zipBytes, /declares \d+ bytes; at most 100 are accepted/, {
        ...OPTIONS,
        maxOriginalBytes: 100,
      });
      // A deflated entry whose declared size is smaller than what it inflates to (a bomb's lie):
      // the JSON is read against its declared size and stopped there.
      const files = unzipSync(new Uint8Array(zipBytes));
      const small = Buffer.from(zipSync(files, { level: 9 }));
      const directory = small.lastIndexOf(
        Buffer.from([0x50, 0x4b, 0x01, 0x02]),
        small.indexOf('folio-export.json', small.length / 2),
      );
      small.writeUInt32LE(10, directory + 24);
      await expectRefused(small, /more than the 10 bytes it declares/);
    });

    /** `bytes` with a 16-bit field of `name`'s central directory record set to `value`. */
    function withCentralField(bytes: Uint8Array, name: string, field: number, value: number) {
      const out = Buffer.from(bytes);
      for (let at = out.indexOf('PK\x01\x02', 0, 'latin1'); at >= 0;) {
        const nameLength = out.readUInt16LE(at + 28);
        if (out.toString('latin1', at + 46, at + 46 + nameLength) === name) {
          out.writeUInt16LE(value, at + field);
          return out;
        }
        at = out.indexOf('PK\x01\x02', at + 46, 'latin1');
      }
      throw new Error(`no central record for ${name}`);
    }

    it('an encrypted entry, an unknown method, a folder', async () => {
      const files = unzipSync(new Uint8Array(zipBytes));
      const [first] = Object.keys(files).filter((name) => name.startsWith('originals/'));
      const stored = zipSync(files, { level: 0 });
      // General purpose flag bit 0 (offset 8) and the method (offset 10), APPNOTE 4.3.12.
      await expectRefused(withCentralField(stored, first!, 8, 1), /encrypted/);
      await expectRefused(withCentralField(stored, first!, 10, 12), /compression method 12/);
      const folder = zipSync({
        ...files,
        'bookmarks.html': [strToU8(''), { os: 3, attrs: (0o040755 << 16) >>> 0 }],
      });
      await expectRefused(folder, /bookmarks\.html" is a directory/);
    });
  });
});
