import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TEST_BUNDLE_DIR } from '../../build.ts';
import { REPO_ROOT } from '../../src/config.ts';

export interface SpawnedServer {
  /** Origin, e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  dataDir: string;
  /** The token printed in the address (the default token). */
  token: string;
  pid: number;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends the signal to this process only and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpawnOptions {
  dataDir: string;
  /** FOLIO_TOKEN; unset means the generated `<data>/token`. */
  token?: string;
  /** 0 (a free port) by default. */
  port?: number;
  env?: Record<string, string>;
  /** How long to wait for the address (ms). */
  startTimeout?: number;
  /** A bundle to run with plain `node` (default: the tests' bundle of `server/src/main.ts`). */
  entry?: string;
}

/**
 * Starts the real server process (`node <entry>`: the tests' bundle of `server/src/main.ts`, built
 * once by their global set-up as `npm start` builds its own) on loopback, and resolves once it
 * printed its address.
 */
export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(options.port ?? 0),
    FOLIO_DATA_DIR: options.dataDir,
    FOLIO_LOG: 'warn',
    FOLIO_TOKEN: options.token,
    ...options.env,
  };
  if (options.token === undefined) delete env.FOLIO_TOKEN;
  const child = spawn(process.execPath, [options.entry ?? bundled('server/src/main.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = await waitForAddress(child, () => output, options.startTimeout ?? 30_000);
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server has no pid');
  return {
    url: address.origin,
    port: Number(address.port),
    dataDir: options.dataDir,
    token: decodeURIComponent(address.hash.replace(/^#token=/, '')),
    pid,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A stop that hangs must not hang the tests: the process is killed after 10 s.
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function waitForAddress(child: ChildProcess, output: () => string, timeout: number): Promise<URL> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not print its address in ${timeout} ms:\n${output()}`));
    }, timeout);
    const onData = () => {
      const match = /^Folio is running at (\S+)$/m.exec(output());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve(new URL(match[1]));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before listening:\n${output()}`));
    });
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The tests' bundle of a server entry point (`server/src/token-cli.ts` → `dist-test/token-cli.js`):
 * a process from it starts in a fraction of the time `tsx` takes to compile the sources.
 */
function bundled(file: string): string {
  const name = basename(file, '.ts');
  const path = join(TEST_BUNDLE_DIR, `${name}.js`);
  if (!existsSync(path)) {
    throw new Error(`${file} has no bundle in ${TEST_BUNDLE_DIR} (see server/build.ts, clis)`);
  }
  return path;
}

/** Runs a command-line tool of the server (its bundle: `node <bundle> …args`) to its end. */
export function runScript(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  timeout = 30_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundled(file), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} did not finish in ${timeout} ms`));
    }, timeout);
    // `close`, not `exit`: the output is complete once the streams are closed.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
