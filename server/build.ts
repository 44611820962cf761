// Bundles the server (server/src/main.ts) into server/dist/main.js for `npm start`: plain `node`
// runs it without a TypeScript loader in the process (tsx holds ~45 MB more). The upload parser's
// worker thread (server/src/parse/parse-worker.ts) is a second entry, server/dist/parse-worker.js,
// which the bundle starts from beside itself. Packages stay external (better-sqlite3 is native);
// paths that the server finds from its own location (`../../openapi`, `../../dist`) hold from
// server/dist as they do from server/src.
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

export const BUILT_SERVER = fileURLToPath(new URL('./dist/main.js', import.meta.url));

export interface BuildServerOptions {
  /** Where the bundle goes (default server/dist, where `npm start` runs it from). */
  outdir?: string;
  /** Also return esbuild's metafile: every input and each import it keeps external. */
  metafile?: boolean;
}

/** Builds the bundle; returns esbuild's metafile when asked for one. */
export async function buildServer(options: BuildServerOptions = {}): Promise<Metafile | undefined> {
  const result = await build({
    entryPoints: {
      main: fileURLToPath(new URL('./src/main.ts', import.meta.url)),
      'parse-worker': fileURLToPath(new URL('./src/parse/parse-worker.ts', import.meta.url)),
    },
    outdir: options.outdir ?? fileURLToPath(new URL('./dist', import.meta.url)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    metafile: options.metafile ?? false,
  });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
