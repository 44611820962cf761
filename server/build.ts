// Bundles the server (server/src/main.ts) into server/dist/main.js for `npm start`: plain `node`
// runs it without a TypeScript loader in the process (tsx holds ~45 MB more). The upload parser's
// worker thread (server/src/parse/parse-worker.ts) is a second entry, server/dist/parse-worker.js,
// which the bundle starts from beside itself. The packages are bundled too: Node then resolves and
// reads one file instead of some 300 (a server started in 0.45 s of CPU instead of 0.85 s; every
// end-to-end test starts one). Only better-sqlite3 stays external (native, it finds its binary
// from its own folder). Paths that the server finds from its own location (`../../openapi`,
// `../../dist`) hold from server/dist as they do from server/src.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { parse } from 'yaml';
import { precompiledValidatorsSource } from './src/precompile-validators.ts';
import type { startEmbeddedServer } from './src/embedded.ts';
import { loadSpec, SPEC_FILE } from './src/spec.ts';

/** A path beside this file. */
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The packages Node loads from node_modules at run time; every other one is in the bundle. */
const EXTERNAL_PACKAGES = ['better-sqlite3'];

export const BUILT_SERVER = source('./dist/main.js');

/**
 * The bundle the server's tests start and run (server and command-line tools), built once by their
 * global set-up: apart from `npm start`'s, which a test rebuilds while others run.
 */
export const TEST_BUNDLE_DIR = source('./dist-test');

/**
 * The bundle the end-to-end tests start (server/build.ts's main, and `embedded.js`, the server in
 * the test's own process), built by their global set-up.
 */
export const E2E_BUNDLE_DIR = source('./dist-e2e');

/** `startEmbeddedServer` of the bundle in `dir` (built with `embedded`), loaded once per process. */
export async function loadEmbeddedServer(dir: string): Promise<typeof startEmbeddedServer> {
  const bundle = (await import(pathToFileURL(join(dir, 'embedded.js')).href)) as {
    startEmbeddedServer: typeof startEmbeddedServer;
  };
  return bundle.startEmbeddedServer;
}

export interface BuildServerOptions {
  /** Where the bundle goes (default server/dist, where `npm start` runs it from). */
  outdir?: string;
  /** Also return esbuild's metafile: every input and each import it keeps external. */
  metafile?: boolean;
  /**
   * Also bundle the command-line tools (`token-cli.js`, `import-cli.js`, `restore-cli.js`,
   * `copy-cli.js`), which `npm run token|import|restore|copy` run from their sources: the tests
   * run them hundreds of times.
   */
  clis?: boolean;
  /** Also bundle `embedded.js` (server/src/embedded.ts): the server inside the caller's process. */
  embedded?: boolean;
}

/** The command-line tools, by the name of their bundle. */
const CLI_ENTRIES = {
  'token-cli': source('./src/token-cli.ts'),
  'import-cli': source('./src/import-cli.ts'),
  'restore-cli': source('./src/archive-io/restore-cli.ts'),
  'copy-cli': source('./src/archive-io/copy-cli.ts'),
};

/**
 * The contract, parsed now, for esbuild's or Vite's `define`: the server reads it as JSON at start
 * instead of parsing YAML (`loadSpec` in server/src/spec.ts).
 */
export function specDefine(): Record<string, string> {
  const document: unknown = parse(readFileSync(SPEC_FILE, 'utf8'));
  return { FOLIO_BUNDLED_SPEC: JSON.stringify(JSON.stringify(document)) };
}

/** The module that the contract's precompiled validators replace (it has none). */
const PRECOMPILED_MODULE = /[\\/]server[\\/]src[\\/]precompiled-validators\.ts$/;

/**
 * Puts the contract's request validators, compiled now, in place of precompiled-validators.ts
 * (which has none): a server then compiles no schema at its first requests.
 */
const precompiledValidators: Plugin = {
  name: 'folio-precompiled-validators',
  setup(build) {
    build.onLoad({ filter: PRECOMPILED_MODULE }, () => ({
      contents: precompiledValidatorsSource(loadSpec(SPEC_FILE)),
      loader: 'js',
      resolveDir: source('./src'),
    }));
  },
};

/** Builds the bundle; returns esbuild's metafile when asked for one. */
export async function buildServer(options: BuildServerOptions = {}): Promise<Metafile | undefined> {
  const result = await build({
    entryPoints: {
      main: source('./src/main.ts'),
      'parse-worker': source('./src/parse/parse-worker.ts'),
      'ingest-worker': source('./src/store/ingest-worker.ts'),
      'checkpoint-worker': source('./src/store/checkpoint-worker.ts'),
      'search-index-worker': source('./src/store/search-index-worker.ts'),
      ...(options.clis === true ? CLI_ENTRIES : {}),
      ...(options.embedded === true ? { embedded: source('./src/embedded.ts') } : {}),
    },
    outdir: options.outdir ?? source('./dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    // Bundled CommonJS packages `require` Node's modules; an ES module has no `require` of its own.
    banner: {
      js: "import { createRequire as folioCreateRequire } from 'node:module';\nconst require = folioCreateRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
    metafile: options.metafile ?? false,
    define: specDefine(),
    plugins: [precompiledValidators],
  });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
