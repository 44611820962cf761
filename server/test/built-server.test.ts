// `npm start` runs the bundle (server/dist/main.js, made by server/build.ts) with plain node: it
// must find the contract, the app's files, the native database module and the upload parser's
// worker (server/dist/parse-worker.js) as the sources do.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMhtml } from '../../test/support/archives.ts';
import { BUILT_SERVER, buildServer } from '../build.ts';
import { call, ok, upload } from './support/api.ts';
import { fileFor } from './support/seed.ts';
import { spawnServer, type SpawnedServer } from './support/spawned-server.ts';

let server: SpawnedServer;
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  await buildServer();
  dataDir = mkdtempSync(join(tmpdir(), 'folio-built-'));
  staticDir = mkdtempSync(join(tmpdir(), 'folio-built-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Folio app</title>');
  server = await spawnServer({
    dataDir,
    token: 'built-token',
    entry: BUILT_SERVER,
    env: { FOLIO_STATIC_DIR: staticDir },
  });
}, 60_000);

afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the bundled server', () => {
  it('stores an upload, lists it and validates requests against the contract', async () => {
    const file = fileFor({ key: 'b', title: 'Built and bundled', ext: 'html' });
    const stored = await upload(server, file, 'html');
    const list = await ok(server, 'listWebpages', {});
    expect(list.webpages.map((page: { id: string }) => page.id)).toEqual([stored.id]);
    const bad = await fetch(`${server.url}/public/api/v1/webpages?page=0`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(bad.status).toBe(400);
  });

  it('parses uploads in its worker: an MHTML, and an invalid file with the parse error', async () => {
    const file = makeMhtml({
      html: '<html><head><title>Bundled MHTML</title></head><body><p>Read by the worker.</p></body></html>',
      url: 'https://bundle.example/page',
      date: new Date('2026-02-03T04:05:06Z'),
    });
    const stored = await upload(server, file, 'mhtml');
    expect(stored).toMatchObject({
      title: 'Bundled MHTML',
      link: 'https://bundle.example/page',
      size: file.length,
    });
    const invalid = await call(server, 'uploadWebpage', {
      body: { content: Buffer.from('no elements here').toString('base64'), ext: 'html' },
    });
    expect(invalid.body).toEqual({
      success: false,
      error: 'E0001',
      message: 'parse error: the file contains no HTML elements',
    });
  });

  it('serves the app', async () => {
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain('Folio app');
  });
});
