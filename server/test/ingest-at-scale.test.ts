// Ingest at scale as a client sees it: uploads under 1 MB are held in memory (no temp file, no
// read back), the small ones' bytes recorded in the database with their pages and the others'
// files written by the blob store's writer thread, a group at a time; large ones are still
// streamed to a temp file. Whatever the path, every acknowledged upload is listed and reads back
// byte for byte, a crafted small file still gets its clear error, and no temp file is left behind.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { manyPartsMhtml, sharedFrameWebarchive } from '../../test/support/hostile-inputs.ts';
import { BlobStore, StagedBytes } from '../src/store/blobs.ts';
import { call, ok } from './support/api.ts';
import { readStoredOriginal, storedOriginals } from './support/originals.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('ingest at scale', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('lists every acknowledged upload of 8 concurrent clients and reads each back byte for byte', async () => {
    const sent = new Map<string, Buffer>();
    const client = async (index: number) => {
      for (let step = 0; step < 25; step++) {
        // Every fifth step all clients send the same bytes (one page, several uploads in a
        // group); one upload in ten is over a megabyte (streamed to a temp file, not held), one
        // in ten of 100 kB (held, too large for the database: written to a file).
        const name = step % 5 === 0 ? `shared ${step}` : `client ${index} step ${step}`;
        const padding =
          step % 10 === 3 ? 'x'.repeat(1_200_000) : step % 10 === 7 ? 'y'.repeat(100_000) : '';
        const bytes = makeHtml({ title: name, body: `<p>${name}</p><p>${padding}</p>` });
        const answer = await call(server, 'uploadWebpage', {
          body: { content: bytes.toString('base64'), ext: 'html' },
        });
        expect(answer.status, name).toBe(200);
        expect((answer.body.data as { id: string }).id, name).toBe(sha256(bytes));
        sent.set(sha256(bytes), bytes);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));

    const listed = await ok(server, 'listWebpages', { query: { per_page: 1000 } });
    expect(listed.webpages.map((page) => page.id).sort()).toEqual([...sent.keys()].sort());
    for (const [id, bytes] of sent) {
      const content = await ok(server, 'getWebpageContent', { params: { id } });
      expect(Buffer.from(content, 'base64').equals(bytes), `the bytes of ${id}`).toBe(true);
      expect(readStoredOriginal(server.dataDir, id)?.equals(bytes), `the file of ${id}`).toBe(true);
    }
    // Up to 64 kB in the database, larger ones in files, each once; no temp file left.
    const idsWhere = (test: (bytes: Buffer) => boolean) =>
      [...sent]
        .filter(([, bytes]) => test(bytes))
        .map(([id]) => id)
        .sort();
    expect(storedOriginals(server.dataDir)).toEqual({
      inDatabase: idsWhere((bytes) => bytes.length <= 64 * 1024),
      files: idsWhere((bytes) => bytes.length > 64 * 1024),
      temp: [],
    });
  }, 120_000);

  it('answers a crafted small file with its clear error, and stores nothing', async () => {
    const before = storedOriginals(server.dataDir);
    const cases = [
      {
        file: sharedFrameWebarchive(24),
        ext: 'webarchive',
        message: /^parse error: webarchive: the webarchive reuses a frame/,
      },
      {
        file: manyPartsMhtml(25_000),
        ext: 'mhtml',
        message: /^parse error: mhtml: more than 20000 parts$/,
      },
    ] as const;
    for (const { file, ext, message } of cases) {
      // Held in memory: under the megabyte from which an upload is streamed to a temp file.
      expect(file.length).toBeLessThan(1 << 20);
      const answer = await call(server, 'uploadWebpage', {
        body: { content: Buffer.from(file).toString('base64'), ext },
      });
      expect(answer.status, ext).toBe(200);
      expect(answer.body, ext).toEqual({
        success: false,
        error: 'E0001',
        message: expect.stringMatching(message),
      });
      const missing = await call(server, 'getWebpage', { params: { id: sha256(file) } });
      expect(missing.status, ext).toBe(404);
    }
    expect(storedOriginals(server.dataDir)).toEqual(before);
  });
});

describe('BlobStore.commitMany', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-blob-group-'));
  const blobs = new BlobStore(root);

  afterAll(async () => {
    await blobs.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('stores a group of held files under their ids, and a file that cannot be written fails alone', async () => {
    const files = ['one', 'two', 'three', 'four'].map((text) => Buffer.from(`bytes of ${text}`));
    const ids = files.map((file) => sha256(file));
    expect(new Set(ids.map((id) => id.slice(0, 2))).size).toBe(4);
    // A plain file where the third one's folder should be: it cannot be made.
    writeFileSync(join(root, ids[2]!.slice(0, 2)), 'not a folder');
    const outcomes = await blobs.commitMany(
      files.map((file, index) => ({
        staged: new StagedBytes(new Uint8Array(file)),
        id: ids[index]!,
      })),
    );
    expect(outcomes.map((outcome) => outcome === undefined)).toEqual([true, true, false, true]);
    for (const index of [0, 1, 3]) {
      expect(readFileSync(blobs.pathOf(ids[index]!))).toEqual(files[index]);
      // No temp file left beside it.
      expect(readdirSync(join(root, ids[index]!.slice(0, 2)))).toEqual([ids[index]]);
    }
  });
});
