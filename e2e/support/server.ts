import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RunningServer {
  /** Origin of the app and API, e.g. http://127.0.0.1:40123 */
  url: string;
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');

/**
 * Starts Folio's real server (the same entry point as `npm start`) on a free port with an empty
 * archive in a temporary folder. Each caller gets its own archive.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-'));
  const token = `e2e-${Math.random().toString(36).slice(2)}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      FOLIO_DATA_DIR: dataDir,
      FOLIO_TOKEN: token,
      FOLIO_LOG: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await waitForAddress(child);
  return {
    url,
    token,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function waitForAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
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
        resolveUrl(match[1]);
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
