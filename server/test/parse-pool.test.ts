// Uploads are parsed in worker threads (server/src/parse/parse-pool.ts): the same results and
// answers as parsing on the main thread, which stays free meanwhile; a worker that crashes, runs
// out of memory or hangs fails its own upload only (nothing stored) and is replaced; idle workers
// stop. A parse past the limits (time, heap) is the file's doing: E0001, too complex to read.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeHtml, makeMhtml, makeWebarchive } from '../../test/support/archives.ts';
import { parseFailure } from '../src/http/envelope.ts';
import { ParseError } from '../src/parse/parse-error.ts';
import {
  ParseLimitError,
  ParsePool,
  parsePool,
  ParseWorkerError,
} from '../src/parse/parse-pool.ts';
import { parseWebpage, type WebpageExt } from '../src/parse/parse-webpage.ts';
import { ok, operationUrl, upload } from './support/api.ts';
import { storedIds } from './support/originals.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/**
 * A stand-in for parse-worker.ts that speaks its protocol (says it started its first task, then
 * answers each)
 * and does what the file's path says:
 * `wait:<ms>`, `exit:<code>`, `throw:<message>` (uncaught), `oom` (allocates without end),
 * `hang` (loops forever); anything else answers at once. The text of its answer is its thread id.
 */
const FAKE_WORKER = `
import { parentPort, threadId } from 'node:worker_threads';
const held = [];
let said = false;
parentPort.on('message', (task) => {
  if (!said) parentPort.postMessage({ id: task.id, status: 'started' });
  said = true;
  const what = task.source.kind === 'file' ? task.source.path : 'bytes';
  const [command, argument] = what.split(':');
  const answer = () => parentPort.postMessage({
    id: task.id,
    status: 'parsed',
    parsed: { title: what, excerpt: '', link: null, createTime: null, text: String(threadId) },
  });
  if (command === 'wait') setTimeout(answer, Number(argument));
  else if (command === 'exit') process.exit(Number(argument));
  else if (command === 'throw') setImmediate(() => { throw new Error(argument); });
  else if (command === 'oom') for (;;) held.push(new Array(100_000).fill(Math.random()));
  else if (command === 'hang') for (;;);
  else answer();
});
`;

let fakeDir: string;
let fakeWorker: URL;
const pools: ParsePool[] = [];

function fakePool(options: ConstructorParameters<typeof ParsePool>[0] = {}): ParsePool {
  const pool = new ParsePool({ workerUrl: fakeWorker, ...options });
  pools.push(pool);
  return pool;
}

beforeAll(() => {
  fakeDir = mkdtempSync(join(tmpdir(), 'folio-fake-worker-'));
  writeFileSync(join(fakeDir, 'fake-parse-worker.mjs'), FAKE_WORKER);
  fakeWorker = pathToFileURL(join(fakeDir, 'fake-parse-worker.mjs'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(pools.splice(0).map((pool) => pool.stopWorkers()));
});

afterAll(() => rmSync(fakeDir, { recursive: true, force: true }));

/** What the parse threw on the main thread: the reason of its ParseError. */
function reasonOf(bytes: Uint8Array, ext: WebpageExt): string {
  try {
    parseWebpage(bytes, ext);
  } catch (error) {
    if (error instanceof ParseError) return error.reason;
    throw error;
  }
  throw new Error('the file parsed');
}

const mhtmlFile = makeMhtml({
  html: '<html><head><title>In a worker</title></head><body><p>Parsed elsewhere.</p></body></html>',
  url: 'https://worker.example/page',
  date: new Date('2026-03-04T05:06:07Z'),
});
const goodFiles: [string, Buffer, WebpageExt][] = [
  ['html', makeHtml({ title: 'Worker HTML', body: '<p>Some text.</p>' }), 'html'],
  ['mhtml', mhtmlFile, 'mhtml'],
  [
    'webarchive',
    makeWebarchive({
      html: '<title>Worker archive</title><p>Text</p>',
      url: 'https://wa.example/',
    }),
    'webarchive',
  ],
];
const badFiles: [string, Buffer, WebpageExt][] = [
  ['NUL bytes as html', Buffer.from('<html>\0<body>x</body></html>'), 'html'],
  ['text without elements as html', Buffer.from('just some words < and more'), 'html'],
  ['html declared as mhtml', makeHtml({ title: 'Not MHTML' }), 'mhtml'],
  ['noise as webarchive', randomBytes(2048), 'webarchive'],
  [
    'webarchive of an image',
    makeWebarchive({ html: 'PNG', url: 'https://wa.example/i.png', mimeType: 'image/png' }),
    'webarchive',
  ],
];

describe('the parse pool, with the real worker', () => {
  it('parses files and bytes as the main thread does, and moves the bytes instead of copying', async () => {
    const pool = new ParsePool();
    pools.push(pool);
    const dir = mkdtempSync(join(tmpdir(), 'folio-parse-pool-'));
    try {
      for (const [name, file, ext] of goodFiles) {
        const expected = parseWebpage(file, ext);
        const path = join(dir, name);
        writeFileSync(path, file);
        expect(await pool.parseFile(path, ext), name).toEqual(expected);

        const bytes = new Uint8Array(file.length);
        bytes.set(file);
        const result = await pool.parseBytes(bytes, ext);
        expect(result.parsed, name).toEqual(expected);
        expect(Buffer.from(result.bytes).equals(file), name).toBe(true);
        // Moved to the worker (and back as another view), not copied.
        expect(bytes.byteLength, name).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(pool.size).toBe(1);
  });

  it('copies a view of part of a shared buffer rather than taking the whole buffer away', async () => {
    const pool = new ParsePool();
    pools.push(pool);
    const file = makeHtml({ title: 'Shared', body: '<p>x</p>' });
    const shared = Buffer.alloc(file.length + 32, 0x2a);
    file.copy(shared, 16);
    const view = shared.subarray(16, 16 + file.length);
    const result = await pool.parseBytes(view, 'html');
    expect(result.parsed.title).toBe('Shared');
    expect(shared.byteLength).toBe(file.length + 32);
    expect(shared[0]).toBe(0x2a);
    expect(Buffer.from(result.bytes).equals(file)).toBe(true);
  });

  it('rejects an invalid file with the ParseError the main thread would throw', async () => {
    const pool = new ParsePool();
    pools.push(pool);
    for (const [name, file, ext] of badFiles) {
      const error: unknown = await pool.parseBytes(new Uint8Array(file), ext).catch((e) => e);
      expect(error, name).toBeInstanceOf(ParseError);
      expect((error as ParseError).reason, name).toBe(reasonOf(file, ext));
    }
    // A parse error is an answer, not a crash: the worker is still there.
    expect(pool.size).toBe(1);
  });

  it('fails a parse of a missing file with its error, without a crash', async () => {
    const pool = new ParsePool();
    pools.push(pool);
    const missing = join(tmpdir(), `folio-no-such-file-${randomBytes(6).toString('hex')}`);
    await expect(pool.parseFile(missing, 'html')).rejects.toThrow(/ENOENT/);
    expect(pool.size).toBe(1);
  });
});

describe('the parse pool', () => {
  it('runs one parse per worker, queues the rest, and never starts more than its limit', async () => {
    const pool = fakePool({ maxWorkers: 2 });
    const paths = ['wait:150', 'wait:150', 'wait:10', 'quick'];
    const parses = Promise.all(paths.map((path) => pool.parseFile(path, 'html')));
    expect(pool.size).toBe(2);
    expect(pool.busy).toBe(2);
    expect(pool.queued).toBe(2);
    expect((await parses).map((parsed) => parsed.title)).toEqual(paths);
    expect(pool.size).toBe(2);
    expect(pool.busy).toBe(0);

    // One worker: one parse after the other, in order.
    const one = fakePool({ maxWorkers: 1 });
    const order: string[] = [];
    await Promise.all(
      ['wait:50', 'a', 'b'].map((path) =>
        one.parseFile(path, 'html').then((parsed) => order.push(parsed.title)),
      ),
    );
    expect(order).toEqual(['wait:50', 'a', 'b']);
    expect(one.size).toBe(1);
  });

  it('fails only the parse whose worker exits, and replaces the worker for the next ones', async () => {
    const pool = fakePool({ maxWorkers: 1 });
    const first = await pool.parseFile('first', 'html');
    const crash = pool.parseFile('exit:3', 'html');
    const queued = pool.parseFile('after', 'html');
    await expect(crash).rejects.toThrow(
      new ParseWorkerError('the parser stopped unexpectedly (exit code 3)'),
    );
    const after = await queued;
    expect(after.title).toBe('after');
    // Another thread answered.
    expect(after.text).not.toBe(first.text);
    expect(pool.size).toBe(1);
  });

  it('fails the parse of a worker that throws or runs out of memory', async () => {
    const pool = fakePool({ resourceLimits: { maxOldGenerationSizeMb: 24 } });
    await expect(pool.parseFile('throw:broken', 'html')).rejects.toThrow(
      new ParseWorkerError('the parser stopped unexpectedly (broken)'),
    );
    await expect(pool.parseFile('oom', 'html')).rejects.toThrow(
      new ParseLimitError('the parser ran out of memory'),
    );
    expect((await pool.parseFile('fine', 'html')).title).toBe('fine');
  });

  it('stops a worker whose parse takes longer than the time limit', async () => {
    const pool = fakePool({ maxWorkers: 1, taskTimeoutMs: 300 });
    const hung = pool.parseFile('hang', 'html');
    const queued = pool.parseFile('next', 'html');
    await expect(hung).rejects.toThrow(
      new ParseLimitError('the parser took longer than 0.3 s and was stopped'),
    );
    expect((await queued).title).toBe('next');
  });

  it('stops a worker that has parsed before (it says no more that it starts) when a parse takes too long', async () => {
    const pool = fakePool({ maxWorkers: 1, taskTimeoutMs: 300 });
    expect((await pool.parseFile('first', 'html')).title).toBe('first');
    const hung = pool.parseFile('hang', 'html');
    const queued = pool.parseFile('next', 'html');
    await expect(hung).rejects.toThrow(
      new ParseLimitError('the parser took longer than 0.3 s and was stopped'),
    );
    expect((await queued).title).toBe('next');
  });

  it('stops workers that stay idle, and starts one again when needed', async () => {
    const pool = fakePool({ idleTimeoutMs: 100 });
    await pool.parseFile('one', 'html');
    expect(pool.size).toBe(1);
    await vi.waitFor(() => expect(pool.size).toBe(0), { timeout: 5_000, interval: 20 });
    expect((await pool.parseFile('two', 'html')).title).toBe('two');
    expect(pool.size).toBe(1);
  });

  it('stops its workers on demand: running and waiting parses fail, later ones work', async () => {
    const pool = fakePool({ maxWorkers: 1 });
    const failure = (error: unknown) => error;
    const running = pool.parseFile('wait:10000', 'html').catch(failure);
    const waiting = pool.parseFile('quick', 'html').catch(failure);
    await pool.stopWorkers();
    expect(pool.size).toBe(0);
    const stopped = new ParseWorkerError('the parser was stopped (the server is shutting down)');
    expect(await running).toEqual(stopped);
    expect(await waiting).toEqual(stopped);
    expect((await pool.parseFile('later', 'html')).title).toBe('later');
  });

  it('fails a parse when its worker cannot start', async () => {
    const pool = new ParsePool({ workerUrl: pathToFileURL(join(fakeDir, 'missing.mjs')) });
    pools.push(pool);
    await expect(pool.parseFile('x', 'html')).rejects.toThrow(ParseWorkerError);
    expect(pool.size).toBe(0);
  });
});

/** A ~22 MB MHTML: a long article and large base64 images, which the parser decodes. */
function bigMhtml(nonce: string): Buffer {
  const article = '<p>Words and more words.</p>'.repeat(100_000);
  return makeMhtml({
    html: `<html><head><title>Big ${nonce}</title></head><body>${article}</body></html>`,
    url: `https://big.example/${nonce}`,
    resources: Array.from({ length: 4 }, (_, i) => ({
      url: `https://big.example/${nonce}/${i}.png`,
      contentType: 'image/png',
      body: randomBytes(3_600_000),
    })),
  });
}

describe('uploads', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  const post = (body: Buffer | string) =>
    fetch(operationUrl(server, 'uploadWebpage').url, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });

  /** The ids of the stored originals (files or in the database) and the leftover temp files. */
  function files() {
    const stored = storedIds(server.dataDir);
    const staging = join(server.dataDir, 'blobs', '.staging');
    return { stored, staging: existsSync(staging) ? readdirSync(staging) : [] };
  }

  it('are parsed in a worker: other requests are answered while a big file is parsed', async () => {
    const file = bigMhtml('responsive');
    const events: string[] = [];
    const uploading = upload(server, file, 'mhtml').then((page) => {
      events.push('upload answered');
      return page;
    });
    // The body has arrived and its parse runs in the worker...
    await vi.waitFor(() => expect(parsePool.busy).toBe(1), { timeout: 20_000, interval: 1 });
    // ...while the main thread answers a list request.
    const list = await ok(server, 'listWebpages');
    events.push(`list answered, parse running: ${parsePool.busy}`);
    const page = await uploading;
    expect(events).toEqual(['list answered, parse running: 1', 'upload answered']);
    expect(list.webpages).toEqual([]);
    expect(page).toMatchObject({ title: 'Big responsive', link: 'https://big.example/responsive' });
    expect(page.size).toBe(file.length);
  });

  it('keep their parse-error answers, streamed or parsed whole', async () => {
    const before = (await ok(server, 'listWebpages')).webpages.length;
    for (const [name, file, ext] of badFiles) {
      const body = JSON.stringify({ content: file.toString('base64'), ext });
      const expected = parseFailure(reasonOf(file, ext));
      const streamed = await post(body);
      expect(streamed.status, name).toBe(200);
      expect(await streamed.json(), name).toEqual(expected);
      // After a byte order mark (which the body reader skips).
      const whole = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]));
      expect(whole.status, name).toBe(200);
      expect(await whole.json(), name).toEqual(expected);
    }
    expect((await ok(server, 'listWebpages')).webpages.length).toBe(before);
  });

  it('fail alone with a 500 when the parser crashes (E0001 when out of memory), store nothing, and the next one works', async () => {
    const crashing = fakePool({ resourceLimits: { maxOldGenerationSizeMb: 24 } });
    const file = makeHtml({ title: 'After a crash', body: '<p>Survives.</p>' });
    const content = file.toString('base64');
    const before = files().stored;
    const cases: [string, number, object, () => void][] = [
      [
        'exit:7',
        500,
        {
          success: false,
          error: 'internal',
          message: 'the file could not be parsed: the parser stopped unexpectedly (exit code 7)',
        },
        () =>
          vi
            .spyOn(parsePool, 'parseStaged')
            .mockImplementationOnce((_path, ext) => crashing.parseFile('exit:7', ext)),
      ],
      [
        'oom',
        200,
        parseFailure('the page is too complex to read (the parser ran out of memory)'),
        () =>
          vi
            .spyOn(parsePool, 'parseStaged')
            .mockImplementationOnce((_path, ext) => crashing.parseFile('oom', ext)),
      ],
    ];
    for (const [name, status, expected, crashNext] of cases) {
      crashNext();
      const answer = await post(JSON.stringify({ content, ext: 'html' }));
      expect(answer.status, name).toBe(status);
      expect(await answer.json(), name).toEqual(expected);
      expect(files(), name).toEqual({ stored: before, staging: [] });
    }
    // After a byte order mark: the same path, to a worker that crashed.
    vi.spyOn(parsePool, 'parseStaged').mockImplementationOnce((_path, ext) =>
      crashing.parseFile('exit:9', ext),
    );
    const whole = await post(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ content, ext: 'html' })),
      ]),
    );
    expect(whole.status).toBe(500);
    expect(await whole.json()).toEqual({
      success: false,
      error: 'internal',
      message: 'the file could not be parsed: the parser stopped unexpectedly (exit code 9)',
    });
    expect(files()).toEqual({ stored: before, staging: [] });
    const titles = (await ok(server, 'listWebpages')).webpages.map((page) => page.title);
    expect(titles).not.toContain('After a crash');

    // The same file again, now that the parser is fine.
    const page = await upload(server, file, 'html');
    expect(page.title).toBe('After a crash');
    expect(files().stored).toContain(page.id);
  });

  it('answer E0001 when the parse hangs, and store nothing', async () => {
    const hanging = fakePool({ taskTimeoutMs: 200 });
    vi.spyOn(parsePool, 'parseStaged').mockImplementationOnce((_path, ext) =>
      hanging.parseFile('hang', ext),
    );
    const before = files().stored;
    const content = makeHtml({ title: 'Hung' }).toString('base64');
    const answer = await post(JSON.stringify({ content, ext: 'html' }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(
      parseFailure(
        'the page is too complex to read (the parser took longer than 0.2 s and was stopped)',
      ),
    );
    expect(files()).toEqual({ stored: before, staging: [] });
  });

  it('have their workers stopped when the app closes', async () => {
    const other = await startTestServer();
    try {
      await upload(other, mhtmlFile, 'mhtml');
      expect(parsePool.size).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
    // The first server still uses the pool: its workers stay.
    expect(parsePool.size).toBeGreaterThan(0);
    await server.close();
    expect(parsePool.size).toBe(0);
    server = await startTestServer();
  });
});
