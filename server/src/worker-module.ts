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
