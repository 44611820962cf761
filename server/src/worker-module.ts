// Starts a worker thread from a module of the server: the bundled one beside server/dist/main.js,
// or, when the server runs from its sources (tsx, Vitest), its TypeScript bundled on the fly.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type * as Esbuild from 'esbuild';

/** Packages a worker imports that cannot be bundled (native): imported from where they are. */
const NATIVE_PACKAGES = ['better-sqlite3'];

/**
 * The worker module `name` beside `importer` (an `import.meta.url`): `name.ts` when the importer
 * runs from its sources, `name.js` beside the bundle (see server/build.ts).
 */
export function workerModule(name: string, importer: string): URL {
  return new URL(`./${name}${importer.endsWith('.ts') ? '.ts' : '.js'}`, importer);
}

export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  // Not the parent's execArgv: `--import tsx` would load tsx in the worker for nothing.
  return new Worker(bundled(url), { ...options, execArgv: [] });
}

const bundles = new Map<string, URL>();

/**
 * A TypeScript worker bundled by esbuild into a data: URL, once per process, at its first start
 * (~50 ms, blocking). Node 20 does not apply the parent's `--import tsx` to worker threads, nor
 * does Vitest's transform reach them, and registering tsx in each worker would cost 0.3 to 1 s per
 * start. The bundle holds the packages too (a data: URL resolves no bare import), but for the
 * native ones, imported by their file's URL.
 */
function bundled(url: URL): URL {
  let bundle = bundles.get(url.href);
  if (bundle === undefined) {
    // esbuild comes with tsx; required here only, so the bundled server never loads it.
    const require = createRequire(import.meta.url);
    const esbuild = require('esbuild') as typeof Esbuild;
    const { outputFiles } = esbuild.buildSync({
      entryPoints: [fileURLToPath(url)],
      outfile: 'worker.js',
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      external: NATIVE_PACKAGES,
    });
    // The native packages' imports name their files (esbuild's synchronous API takes no plugin
    // that could resolve them so).
    let code = outputFiles[0]?.text ?? '';
    for (const name of NATIVE_PACKAGES) {
      code = code.replaceAll(
        `from "${name}"`,
        `from "${pathToFileURL(require.resolve(name)).href}"`,
      );
    }
    bundle = new URL(`data:text/javascript,${encodeURIComponent(code)}`);
    bundles.set(url.href, bundle);
  }
  return bundle;
}

/**
 * Resolves once `worker` has ended (at once for none), or after `withinMs`. The process waits for
 * it meanwhile (an unreferenced worker would let the process end first, the promise never
 * settled: a CLI that awaits its store's close ended with exit code 0 whatever it returned).
 */
export function exited(worker: Worker | undefined, withinMs?: number): Promise<void> {
  if (worker === undefined) return Promise.resolve();
  worker.ref();
  return new Promise((resolve) => {
    const timer =
      withinMs === undefined
        ? undefined
        : setTimeout(() => {
            worker.unref();
            resolve();
          }, withinMs);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The buffers that can be moved to a worker rather than copied: those that the bytes fill whole (a
 * view of part of a buffer, as Node's small Buffers share one, is copied). Moved, they are empty
 * on this side afterwards.
 */
export function movable(views: readonly Uint8Array[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const bytes of views) {
    const { buffer } = bytes;
    if (
      buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === buffer.byteLength
    ) {
      buffers.add(buffer);
    }
  }
  return [...buffers];
}

/** The outcome of one request to a worker. */
export type WorkerOutcome<R> = { ok: true; value: R } | { ok: false; error: Error };

interface Pending<R> {
  resolve: (value: R) => void;
  reject: (error: Error) => void;
}

/**
 * Requests to a worker thread, each answered by a message that names it: the worker starts at the
 * first request and is kept, unreferenced while no request waits (so it never holds the process
 * open). A worker that stops fails the requests it had; the next request starts another.
 */
export class WorkerRequests<R> {
  private current: { worker: Worker; pending: Map<number, Pending<R>> } | undefined;
  private nextId = 1;

  constructor(
    /** For the error of a worker that stopped: "the file writer". */
    private readonly name: string,
    private readonly spawn: () => Worker,
    /** The request a message answers, and how. */
    private readonly answer: (message: unknown) => { id: number; outcome: WorkerOutcome<R> },
  ) {}

  /** Sends the message made for a new request's id; resolves with the worker's answer. */
  request(message: (id: number) => unknown, transfer: readonly ArrayBuffer[] = []): Promise<R> {
    return new Promise((resolve, reject) => {
      const { worker, pending } = this.current ?? this.start();
      const id = this.nextId++;
      pending.set(id, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage(message(id), transfer);
      } catch (error) {
        pending.delete(id);
        if (pending.size === 0) worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** The worker, let go of (its answers still come): the next request starts another. */
  release(): Worker | undefined {
    const worker = this.current?.worker;
    this.current = undefined;
    return worker;
  }

  private start(): { worker: Worker; pending: Map<number, Pending<R>> } {
    const worker = this.spawn();
    const pending = new Map<number, Pending<R>>();
    worker.on('message', (message: unknown) => {
      const { id, outcome } = this.answer(message);
      const waiting = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) worker.unref();
      if (outcome.ok) waiting?.resolve(outcome.value);
      else waiting?.reject(outcome.error);
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (this.current?.worker === worker) this.current = undefined;
      const error = new Error(
        `${this.name} stopped (${failure?.message ?? `exit code ${String(code)}`})`,
      );
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    this.current = { worker, pending };
    return this.current;
  }
}
