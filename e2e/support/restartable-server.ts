// Folio's real server that a test can stop and start again on the same port and data folder (the
// browser keeps talking to the same origin), and a loopback proxy that delays and counts requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchServer, randomToken, root } from './server.ts';

export interface RestartableServer {
  /** Origin of the app and API, the same across restarts. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** The default token (FOLIO_TOKEN) of the current run. */
  token: string;
  running(): boolean;
  /** Stops the process (SIGTERM, or SIGKILL for a crash) and keeps the data folder. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data folder, with another token if given. */
  start(options?: { token?: string }): Promise<void>;
  /** Runs `npm run token -- …args` on the data folder; resolves with its stdout. */
  tokenCli(...args: string[]): Promise<string>;
  /** Stops the process and removes the data folder. */
  dispose(): Promise<void>;
}

export async function startRestartableServer(token = randomToken()): Promise<RestartableServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-faults-'));
  let child: ChildProcess | undefined;
  let currentToken = token;
  // Every process started, so that `dispose` can end one whose stop did not finish.
  const launched = new Set<ChildProcess>();
  const first = await launchServer({ dataDir, port: 0, token: currentToken });
  child = first.child;
  launched.add(child);
  const port = first.port;

  const server: RestartableServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    get token() {
      return currentToken;
    },
    set token(value: string) {
      currentToken = value;
    },
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((done) => proc.once('exit', done));
      proc.kill(signal);
      // A stop that hangs fails the test instead of hanging it.
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      if (proc.signalCode === 'SIGKILL' && signal !== 'SIGKILL') {
        throw new Error(`the server did not stop within 10 s of ${signal}`);
      }
    },
    async start(options = {}) {
      if (server.running()) throw new Error('the server is already running');
      currentToken = options.token ?? currentToken;
      // The port was just released: a few tries in case the system needs a moment.
      for (let attempt = 0; ; attempt++) {
        try {
          child = (await launchServer({ dataDir, port, token: currentToken })).child;
          launched.add(child);
          return;
        } catch (error) {
          if (attempt >= 4) throw error;
          await new Promise((done) => setTimeout(done, 250));
        }
      }
    },
    tokenCli: (...args) => runTokenCli(dataDir, args),
    async dispose() {
      await server.stop().catch(() => undefined);
      for (const proc of launched) {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

function runTokenCli(dataDir: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/token-cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, FOLIO_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveOutput, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveOutput(stdout);
      else reject(new Error(`npm run token -- ${args.join(' ')} failed (${code}): ${stderr}`));
    });
  });
}

export interface SlowProxy {
  /** Origin of the proxy: open the app here. */
  url: string;
  /** Milliseconds every API answer is held back (changeable during a test). */
  delayMs: number;
  /** `METHOD path` of every API request that reached the proxy, in order. */
  readonly requests: string[];
  /** From now on, API answers wait (the requests reach the server) until `release()`. */
  hold(): void;
  /** Sends every held answer, and lets the next ones through. */
  release(): void;
  /** How many API answers are held or delayed right now. */
  readonly pending: number;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy to `target` that records API requests and holds their answers back: by
 * `delayMs`, or until `release()` after `hold()` (a state a test controls, so a loading state
 * lasts as long as the test needs on a machine of any speed).
 */
export async function startSlowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  let held: (() => void)[] | null = null;
  let pending = 0;
  const proxy: SlowProxy = {
    url: '',
    delayMs,
    requests,
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    get pending() {
      return pending;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const isApi = path.startsWith('/public/api/');
    if (isApi && incoming.method !== 'OPTIONS') requests.push(`${incoming.method} ${path}`);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        const send = () => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        };
        if (!isApi) return send();
        pending++;
        const sendLater = () => {
          pending--;
          send();
        };
        if (held) held.push(sendLater);
        else if (proxy.delayMs > 0) setTimeout(sendLater, proxy.delayMs);
        else sendLater();
      },
    );
    forward.on('error', () => {
      outgoing.destroy();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  proxy.url = `http://127.0.0.1:${address.port}`;
  return proxy;
}
