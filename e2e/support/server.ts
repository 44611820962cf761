import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { E2E_BUNDLE_DIR, loadEmbeddedServer } from '../../server/build.ts';

/** The server's bundle as `npm start` runs it, built by the suite's global set-up. */
const SPAWNED_SERVER = join(E2E_BUNDLE_DIR, 'main.js');

export interface RunningServer {
  /** Origin of the app and API, e.g. http://127.0.0.1:40123 */
  url: string;
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** The repository's root, where the server's scripts run. */
export const root = resolve(import.meta.dirname, '../..');

/** A fresh token for a test's server. */
export function randomToken(): string {
  return `e2e-${Math.random().toString(36).slice(2)}`;
}

/**
 * Starts Folio's real server on a free port of loopback with an empty archive in a temporary
 * folder, configured as `npm start` configures it (environment variables, `env` added). Each
 * caller gets its own archive and server. The server runs inside this process (the bundle's
 * `embedded.js`: the same code as `main.js` but for its signals and printed address), which starts
 * in a fifth of the CPU of a process of its own; `launchServer` starts one where a test needs to
 * stop or kill the process.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-'));
  const token = randomToken();
  const start = await loadEmbeddedServer(E2E_BUNDLE_DIR);
  const server = await start(serverEnv({ dataDir, port: 0, token, env }));
  return {
    url: server.url,
    token,
    dataDir,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LaunchOptions {
  dataDir: string;
  /** 0 for a free one. */
  port: number;
  token: string;
  /** More environment variables for the server. */
  env?: Record<string, string>;
}

/** The environment a test's server is configured by (on loopback), embedded or spawned. */
function serverEnv({ dataDir, port, token, env = {} }: LaunchOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    FOLIO_DATA_DIR: dataDir,
    FOLIO_TOKEN: token,
    FOLIO_LOG: 'warn',
    ...env,
  };
}

/**
 * Spawns the server process (`main.js` of the bundle built by the suite's global set-up, as
 * `npm start` runs it) on loopback and
 * resolves once it prints its address; rejects with its output when it exits or is not up in 30 s.
 */
export function launchServer({
  dataDir,
  port,
  token,
  env = {},
}: LaunchOptions): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(process.execPath, [SPAWNED_SERVER], {
    cwd: root,
    env: serverEnv({ dataDir, port, token, env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveLaunch, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Folio's server did not start in time:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/[^\s/]+)\/#token=/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveLaunch({ child, url: match[1], port: Number(new URL(match[1]).port) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Folio's server exited with ${code}:\n${output}`));
    });
  });
}
