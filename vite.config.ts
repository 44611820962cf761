import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { specDefine } from './server/build.ts';

// The dev server proxies the API to a running Folio server (`npm run serve`),
// so `npm run dev` works against the embedded archive on the same origin.
const apiTarget = process.env.FOLIO_API_URL ?? 'http://127.0.0.1:5178';

/**
 * Writes a brotli (.br) and a gzip level 9 (.gz) copy beside every text asset of the build, which
 * the server sends to browsers that accept them: the first screen's JS travels compressed once,
 * at build time, instead of on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'folio-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const file of files) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const path = join(outDir, file);
        const bytes = readFileSync(path);
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * React Router publishes two identical builds but for its development warnings (`dist/development`,
 * which its package exports always select, and `dist/production`). The app's build takes the
 * production one: the warnings' code and messages leave the first screen (~0.6 kB gzipped).
 */
function reactRouterProduction(): Plugin {
  const dist = join(
    dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist',
    'production',
  );
  return {
    name: 'folio-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: join(dist, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: join(dist, 'dom-export.mjs') },
        ],
      },
    }),
  };
}

/** The browser-side tests, run in jsdom. */
const DOM_TESTS = ['src/**/*.test.tsx', 'src/features/**/*.test.ts', 'src/api/**/*.test.ts'];
/** Those that replace a module with `vi.mock`. */
const DOM_TESTS_WITH_MODULE_MOCKS = [
  'src/features/highlights/components/highlights-panel.test.tsx',
  'src/features/upload/components/upload-page.test.tsx',
];

export default defineConfig({
  plugins: [react(), precompress(), reactRouterProduction()],
  server: {
    proxy: {
      '/public/api': apiTarget,
    },
  },
  build: {
    target: 'es2023',
    sourcemap: true,
    // Every browser that runs the es2023 target supports <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The precompression (brotli at its best, on purpose) takes seconds: Rolldown's warning about
      // slow plugin callbacks would only add noise above the address `npm start` prints.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
        // Six characters of hash instead of eight: the first screen lists every lazy chunk's file
        // (its preloads), and random characters do not compress (0.15 kB of gzip). 64^6 names
        // per chunk name stay far from a collision.
        chunkFileNames: 'assets/[name]-[hash:6].js',
        entryFileNames: 'assets/[name]-[hash:6].js',
      },
    },
  },
  worker: {
    format: 'es',
  },
  test: {
    // One test file per core (Vitest's default keeps one core for itself: a single worker on a
    // 2-core machine). The files spend much of their time waiting on the servers, CLIs and workers
    // they start, so the main process needs no core of its own.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        // The contract as JSON, as in the server's bundle: each file's server reads it instead of
        // parsing the YAML again (~0.2 s per file).
        define: specDefine(),
        test: {
          name: 'node',
          environment: 'node',
          // The files in worker threads rather than child processes (133 s instead of 144 s for
          // the 86 files), and each thread's files sharing one module graph: importing the
          // server's modules again for each file took 51 s of the 87 files' time (159 s → 85 s
          // for the project). Nothing a file changes outlives it: the node files mock no module
          // and restore their spies, and they pass with the files in shuffled orders
          // (`--sequence.shuffle.files`).
          pool: 'threads',
          isolate: false,
          globalSetup: ['./server/test/support/global-setup.ts'],
          include: [
            'server/**/*.test.ts',
            'src/lib/**/*.test.ts',
            'shared/**/*.test.ts',
            'test/**/*.test.ts',
            'bench/**/*.test.ts',
            'extension/**/*.test.ts',
          ],
          testTimeout: 60_000,
          // Set-ups start servers and seed archives: bounds against a hang, like testTimeout (the
          // default 10 s failed them on a busy machine).
          hookTimeout: 60_000,
          // The SDK's published dist uses extension-less ESM imports that plain Node cannot load;
          // let Vite resolve it.
          server: { deps: { inline: ['@hamsterbase/sdk'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          // A bound against a hang, not a speed check: the suite must pass on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: DOM_TESTS,
          exclude: [...configDefaults.exclude, ...DOM_TESTS_WITH_MODULE_MOCKS],
          setupFiles: ['./src/test/setup.ts'],
          // One jsdom and one module graph per worker, not per file: setting them up for each of
          // the 55 files took twice the CPU of their tests. src/test/setup.ts empties what the
          // app keeps at module level after each test.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom-mocked',
          environment: 'jsdom',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // `vi.mock` replaces a module for one file: these need a module graph of their own.
          include: DOM_TESTS_WITH_MODULE_MOCKS,
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
