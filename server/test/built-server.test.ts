// `npm start` runs the bundle (server/dist/main.js, made by server/build.ts) with plain node: it
// must find the contract, the app's files, the native database module and the upload parser's
// worker (server/dist/parse-worker.js) as the sources do.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMhtml } from '../../test/support/archives.ts';
import { BUILT_SERVER, buildServer } from '../build.ts';
import { REPO_ROOT, startupLines } from '../src/config.ts';
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

// `npm start` is `vite build --logLevel warn && npm run --silent serve`: its serve step (here, as a
// user runs it: `npm run serve`, which builds the bundle again) must end with the address. In this
// file: the other tests run the bundle that this rebuilds, one after the other.
describe('the serve step of npm start', () => {
  it('prints the address last, below an empty line, after the build and the log', async () => {
    const servedData = mkdtempSync(join(tmpdir(), 'folio-serve-'));
    const env: Record<string, string | undefined> = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      FOLIO_DATA_DIR: servedData,
      FOLIO_STATIC_DIR: staticDir,
    };
    // The defaults a user has: the generated token, the `info` log.
    delete env.FOLIO_TOKEN;
    delete env.FOLIO_LOG;
    // Its own process group: npm, its shell and node stop together.
    const child = spawn('npm', ['run', 'serve'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const address = new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^Folio is running at (\S+)$/m.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', () => reject(new Error(`npm run serve exited:\n${output}`)));
    });
    try {
      const url = new URL(await address);
      // A request after the address: what the log says about it comes after the startup lines.
      const version = await fetch(`${url.origin}/public/api/v1/version`, {
        headers: {
          authorization: `Bearer ${decodeURIComponent(url.hash.slice('#token='.length))}`,
        },
      });
      expect(version.status).toBe(200);
      await expect.poll(() => output).toMatch(/"reqId"/);
      const lines = output.split('\n');
      const startup = lines.slice(
        0,
        lines.findIndex((line) => line.includes('"reqId"')),
      );
      expect(startup.at(-1)).toBe(`Folio is running at ${url.href}`);
      expect(startup.at(-2)).toBe('');
      // npm's banner of `serve` only (not of the nested build step), and no build output.
      expect(startup.filter((line) => line.startsWith('> '))).toEqual([
        '> folio@0.1.0 serve',
        '> npm run --silent build:server && node server/dist/main.js',
      ]);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
      rmSync(servedData, { recursive: true, force: true });
    }
  }, 60_000);

  it('puts the address below the warning of a non-loopback HOST', () => {
    expect(startupLines('0.0.0.0', 5178, 't')).toEqual([
      'Warning: HOST=0.0.0.0 is not a loopback address: anyone who can reach this machine can ' +
        'reach the archive (the token is the only protection).',
      '',
      'Folio is running at http://127.0.0.1:5178/#token=t',
    ]);
    expect(startupLines('127.0.0.1', 5178, 't')).toEqual([
      '',
      'Folio is running at http://127.0.0.1:5178/#token=t',
    ]);
  });
});
