// A parse has a time limit (FOLIO_PARSE_TIMEOUT_S, AppOptions.parseTimeoutMs), counted from when
// its worker starts it, and a heap limit: a page that needs more is too complex to read, answered
// E0001 like any file the server cannot read (not a 500 after a minute), and its worker is
// replaced. Nothing is stored, and the next upload works.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { ParseLimitError, ParsePool } from '../src/parse/parse-pool.ts';
import { call, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** Far below what the slow page needs, far above what a small page needs. */
const TIMEOUT_MS = 250;

/** An 8 MB page of a million paragraphs: seconds to parse (a small page takes milliseconds). */
const slowPage = makeHtml({ title: 'Slow', body: '<p>x</p>'.repeat(1_000_000) });

describe('a parse past its time limit', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ parseTimeoutMs: TIMEOUT_MS });
  });

  afterAll(async () => {
    await server.close();
  });

  function blobFiles(): string[] {
    const root = join(server.dataDir, 'blobs');
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((folder) => readdirSync(join(root, folder)));
  }

  it('is answered E0001 (too complex to read), stores nothing, and the next upload works', async () => {
    const first = await upload(server, makeHtml({ title: 'Before' }), 'html');
    const listBefore = await ok(server, 'listWebpages');
    const filesBefore = blobFiles();

    const answer = await call(server, 'uploadWebpage', {
      body: { content: slowPage.toString('base64'), ext: 'html' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: false,
      error: 'E0001',
      message:
        'parse error: the page is too complex to read (the parser took longer than 0.3 s and was stopped)',
    });
    expect(await ok(server, 'listWebpages')).toEqual(listBefore);
    expect(blobFiles()).toEqual(filesBefore);

    // A new worker, and the clock of a parse starts when it starts: a small page is stored.
    const next = await upload(server, makeHtml({ title: 'After', body: '<p>fine</p>' }), 'html');
    expect(next.title).toBe('After');
    expect((await ok(server, 'listWebpages')).webpages.map((page) => page.id).sort()).toEqual(
      [first.id, next.id].sort(),
    );
  });
});

describe('a parse past its heap limit', () => {
  it('fails with a ParseLimitError (E0001 for an upload), and the worker is replaced', async () => {
    const pool = new ParsePool({ resourceLimits: { maxOldGenerationSizeMb: 16 } });
    try {
      const error: unknown = await pool
        .parseBytes(new Uint8Array(slowPage), 'html')
        .catch((e) => e);
      expect(error).toEqual(new ParseLimitError('the parser ran out of memory'));
      const small = makeHtml({ title: 'Small enough' });
      expect((await pool.parseBytes(new Uint8Array(small), 'html')).parsed.title).toBe(
        'Small enough',
      );
    } finally {
      await pool.stopWorkers();
    }
  });
});
