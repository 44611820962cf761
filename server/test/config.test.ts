import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig, REPO_ROOT } from '../src/config.ts';
import { ok } from './support/api.ts';
import { startTestServer } from './support/test-server.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-config-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ FOLIO_DATA_DIR: dataDir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 5178,
      dataDir,
      maxUploadBytes: 200 * 1024 * 1024,
      parseTimeoutMs: 30_000,
      staticDir: join(REPO_ROOT, 'dist'),
      ignoreViewFilterPatch: false,
      disableSearch: false,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const dataDir = tempDir();
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      FOLIO_DATA_DIR: dataDir,
      FOLIO_TOKEN: 'fixed',
      FOLIO_MAX_UPLOAD_MB: '1.5',
      FOLIO_PARSE_TIMEOUT_S: '2.5',
      FOLIO_STATIC_DIR: '/srv/folio',
      FOLIO_IGNORE_VIEW_FILTER_PATCH: '1',
      FOLIO_DISABLE_SEARCH: '1',
      FOLIO_AS_HAMSTERBASE: '1',
      FOLIO_LOG: 'silent',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 0,
      dataDir,
      token: 'fixed',
      maxUploadBytes: 1.5 * 1024 * 1024,
      parseTimeoutMs: 2500,
      staticDir: '/srv/folio',
      ignoreViewFilterPatch: true,
      disableSearch: true,
      asHamsterBase: true,
      logLevel: 'silent',
    });
  });

  it('refuses invalid values', () => {
    const FOLIO_DATA_DIR = tempDir();
    expect(() => loadConfig({ FOLIO_DATA_DIR, PORT: 'http' })).toThrow(ConfigError);
    expect(() => loadConfig({ FOLIO_DATA_DIR, PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ FOLIO_DATA_DIR, FOLIO_MAX_UPLOAD_MB: '0' })).toThrow(/MAX_UPLOAD/);
    expect(() => loadConfig({ FOLIO_DATA_DIR, FOLIO_LOG: 'loud' })).toThrow(/FOLIO_LOG/);
    for (const value of ['0', '-1', 'soon']) {
      expect(() => loadConfig({ FOLIO_DATA_DIR, FOLIO_PARSE_TIMEOUT_S: value })).toThrow(
        /FOLIO_PARSE_TIMEOUT_S/,
      );
    }
  });

  it('generates a token once, keeps it private and reuses it', () => {
    const dataDir = tempDir();
    const first = loadConfig({ FOLIO_DATA_DIR: dataDir }).token;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(dataDir, 'token')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ FOLIO_DATA_DIR: dataDir }).token).toBe(first);
    // FOLIO_TOKEN wins over the file.
    expect(loadConfig({ FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: 'env' }).token).toBe('env');
    const other = loadConfig({ FOLIO_DATA_DIR: tempDir() }).token;
    expect(other).not.toBe(first);
  });

  it('tells loopback hosts apart', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('restarts', () => {
  it('keep the generated token and the archive', async () => {
    const dataDir = tempDir();
    const { token } = loadConfig({ FOLIO_DATA_DIR: dataDir });
    const first = await startTestServer({ dataDir, token, keepDataDir: true });
    const view = await ok(first, 'createView', { body: { title: 'survives' } });
    await first.close();

    const again = loadConfig({ FOLIO_DATA_DIR: dataDir });
    expect(again.token).toBe(token);
    const second = await startTestServer({ dataDir, token: again.token, keepDataDir: true });
    try {
      expect((await ok(second, 'listViews')).map((item) => item.id)).toEqual([view.id]);
    } finally {
      await second.close();
    }
  });
});

describe('main', () => {
  it('prints the address with the token, serves, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        FOLIO_DATA_DIR: dataDir,
        FOLIO_TOKEN: 'a token/with+chars',
        FOLIO_LOG: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 20_000);
        child.stdout.on('data', () => {
          const match = /^Folio is running at (\S+)$/m.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const url = new URL(line);
      expect(url.hash).toBe(`#token=${encodeURIComponent('a token/with+chars')}`);
      expect(url.hostname).toBe('127.0.0.1');
      const version = await fetch(`${url.origin}/public/api/v1/version`, {
        headers: { authorization: 'Bearer a token/with+chars' },
      });
      expect(await version.json()).toEqual({
        success: true,
        data: { version: '0.1.0', name: 'folio' },
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output.trim().split('\n')).toEqual([`Folio is running at ${line}`]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
