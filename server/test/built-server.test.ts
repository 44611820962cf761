// `npm start` runs the bundle (server/dist/main.js, made by server/build.ts) with plain node: it
// must find the contract, the app's files and the native database module as the sources do.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER, buildServer } from '../build.ts';
import { ok, upload } from './support/api.ts';
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

  it('serves the app', async () => {
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain('Folio app');
  });
});
