// The real server as `npm start` runs it (the bundle server/dist/main.js, built by server/build.ts,
// under plain node) as a child process on a data folder, and
// a keep-alive HTTP client for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { BUILT_SERVER, buildServer } from '../server/build.ts';
import { bodyOf } from '../test/support/http-body.ts';
import { log } from './report.ts';

/** Linux's USER_HZ: /proc times are in 1/100 s. */
const CLOCK_TICKS = 100;

export interface ServerOptions {
  repoRoot: string;
  dataDir: string;
  staticDir: string;
  token: string;
}

export interface Memory {
  /** Resident set now, MB. */
  rss: number;
  /** Peak resident set since start (VmHWM), MB. */
  peak: number;
}

export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
    readonly token: string,
    /** ms from spawn to the "running" line. */
    readonly startMs: number,
  ) {}

  static async start(options: ServerOptions): Promise<ServerProcess> {
    await buildServer();
    const started = performance.now();
    // FOLIO_BENCH_SERVER_NODE_ARGS: node options for the server only (e.g. `--cpu-prof
    // --cpu-prof-dir=.tmp/prof` to profile it under a section; NODE_OPTIONS refuses --cpu-prof).
    const nodeArgs = (process.env.FOLIO_BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, BUILT_SERVER], {
      cwd: options.repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        FOLIO_DATA_DIR: options.dataDir,
        FOLIO_TOKEN: options.token,
        FOLIO_STATIC_DIR: options.staticDir,
        FOLIO_LOG: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) =>
      process.stderr.write(`[server] ${chunk.toString()}`),
    );
    const origin = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error('the server did not start in 120 s')),
        120_000,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Folio is running at (http:\/\/[^/\s]+)\//.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${String(code)} before listening:\n${output}`));
      });
    });
    const startMs = performance.now() - started;
    log(`server ${String(child.pid)} listening at ${origin} after ${Math.round(startMs)} ms`);
    const server = new ServerProcess(child, origin, options.token, startMs);
    child.on('exit', (code, signal) => {
      server.exit = `the server exited (code ${String(code)}, signal ${String(signal)})`;
      if (!server.stopping) log(server.exit);
    });
    return server;
  }

  /** Why the process ended, once it has. */
  exit: string | undefined;
  private stopping = false;

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** VmRSS and VmHWM of the server process from /proc. */
  memory(): Memory {
    const status = readProc(this.pid, 'status');
    const field = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1024;
    };
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  }

  /** CPU time (user + system) the server process has used, ms (10 ms resolution). */
  cpuMs(): number {
    return cpuOf(readProc(this.pid, 'stat'));
  }

  /**
   * CPU time of the server's main thread alone (its JavaScript, SQLite, the HTTP parser), ms: the
   * one thread every request goes through, so its time per request bounds the throughput.
   */
  mainThreadCpuMs(): number {
    return cpuOf(readProc(this.pid, `task/${this.pid}/stat`));
  }

  /**
   * CPU time of each of the server's threads by thread id, ms (Node names them all `node`: the
   * main thread, the parse and blob workers, libuv's pool for file system calls, V8's helpers).
   */
  threadCpuMs(): Map<string, number> {
    const byThread = new Map<string, number>();
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return byThread;
    }
    for (const task of tasks) {
      const stat = readProc(this.pid, `task/${task}/stat`);
      if (stat !== '') byThread.set(task === String(this.pid) ? 'main' : task, cpuOf(stat));
    }
    return byThread;
  }

  /** SIGTERM, then SIGKILL if it has not exited after 10 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** utime + stime of a /proc stat line, ms. */
function cpuOf(stat: string): number {
  // Fields after the command name (which may contain spaces): state is field 3, utime 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** A /proc file of the process; empty once it has exited (the figures become NaN). */
function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

export interface HttpResult {
  status: number;
  body: Buffer;
  /** From sending the request to the last byte of the answer. */
  ms: number;
}

/** Sequential requests over one keep-alive connection (so latency is not connection setup). */
export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    readonly origin: string,
    private readonly token: string,
  ) {}

  api(method: string, path: string, body?: Buffer | string): Promise<HttpResult> {
    return this.send(method, `/public/api/v1${path}`, body);
  }

  send(method: string, path: string, body?: Buffer | string): Promise<HttpResult> {
    const payload =
      body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(
        `${this.origin}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': payload.length }),
          },
        },
        (res) => {
          bodyOf(res).then(
            (body) =>
              resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }),
            reject,
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A JSON API call that must succeed; returns `data`. */
  async data<T>(method: string, path: string, body?: unknown): Promise<T> {
    const result = await this.api(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
    );
    const parsed = JSON.parse(result.body.toString('utf8')) as { success?: boolean; data?: T };
    if (result.status !== 200 || parsed.success !== true) {
      throw new Error(
        `${method} ${path} answered ${result.status}: ${result.body.toString('utf8').slice(0, 300)}`,
      );
    }
    return parsed.data as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
