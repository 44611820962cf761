// Hostile uploads over HTTP, to a real server: each gets a clear answer (E0001 with a message, or
// the stored record) in bounded time, and a refused one leaves the archive as it was.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import {
  hugeTitleHtml,
  manyPartsMhtml,
  nestedDivsHtml,
  sharedFrameWebarchive,
  sharedResourceWebarchive,
} from '../../test/support/hostile-inputs.ts';
import { MAX_TITLE_LENGTH } from '../../shared/webpage-fields.ts';
import { call, ok, upload, type Ext } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** Generous: the shared-frame webarchive ran out of memory after minutes before the fix. */
const ANSWER_WITHIN_MS = 20_000;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await upload(server, makeHtml({ title: 'Already here' }), 'html');
});

afterAll(async () => {
  await server.close();
});

async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the archive holds: its records and the files of its blob store. */
async function archiveState() {
  const { webpages } = await ok(server, 'listWebpages', { query: { per_page: 100 } });
  const files = readdirSync(server.dataDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => !/\.(db|db-wal|db-shm)$/.test(name))
    .sort();
  return { webpages, files };
}

async function uploadFile(bytes: Uint8Array, ext: Ext) {
  return within(
    call(server, 'uploadWebpage', {
      body: { content: Buffer.from(bytes).toString('base64'), ext },
    }),
    `upload of ${bytes.length} bytes as ${ext}`,
  );
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('refused: E0001 with a message, the archive unchanged', () => {
  it.each([
    {
      name: 'a webarchive whose subframes are one shared object (2^24 frames)',
      file: sharedFrameWebarchive(24),
      ext: 'webarchive' as const,
      message: /^parse error: webarchive: the webarchive reuses a frame: subframe 1 at depth 24/,
    },
    {
      name: 'a webarchive listing one resource dictionary 100,000 times',
      file: sharedResourceWebarchive(100_000, 1 << 20),
      ext: 'webarchive' as const,
      message: /^parse error: webarchive: the webarchive reuses a resource/,
    },
    {
      name: 'an MHTML file of a million parts',
      file: manyPartsMhtml(1_000_000),
      ext: 'mhtml' as const,
      message: /^parse error: mhtml: more than 20000 parts$/,
    },
  ])('$name', async ({ file, ext, message }) => {
    const before = await archiveState();
    const answer = await uploadFile(file, ext);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: false,
      error: 'E0001',
      message: expect.stringMatching(message),
    });
    expect(answer.body.message.length).toBeLessThanOrEqual(300);
    expect(await archiveState()).toEqual(before);
    const missing = await call(server, 'getWebpage', { params: { id: sha256(file) } });
    expect(missing.status).toBe(404);
  });
});

describe('stored: the record, with bounded fields', () => {
  it('100,000 nested <div>s (1 MB): read, text and all', async () => {
    const file = nestedDivsHtml(100_000);
    const answer = await uploadFile(file, 'html');
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data).toMatchObject({ id: sha256(file), title: 'Deep', size: file.length });
    const results = await ok(server, 'searchWebpages', { query: { q: 'after the divs' } });
    expect(results.webpages.map((hit) => hit.id)).toEqual([sha256(file)]);
  });

  it('a 5 MB <title>: stored as its first MAX_TITLE_LENGTH characters', async () => {
    const file = hugeTitleHtml(5 * 1024 * 1024, 'é');
    const answer = await uploadFile(file, 'html');
    expect(answer.status).toBe(200);
    expect(answer.body.data.title).toBe('é'.repeat(MAX_TITLE_LENGTH));
    const stored = await ok(server, 'getWebpage', { params: { id: sha256(file) } });
    expect(stored.title).toBe('é'.repeat(MAX_TITLE_LENGTH));
  });
});
