// `npm start` after a production install (`npm ci --omit=dev`) builds the server bundle
// (server/build.ts), which takes in every package the server's own code imports, except the one it
// leaves for Node to load at run time (better-sqlite3): each one must be a `dependency`, not a
// devDependency that happens to be installed here. (ajv and ajv-formats were devDependencies once;
// the server started only because fastify's own validator installs the same packages.)
//
// Why a structural check stands in for starting the server from such an install: `npm ci
// --omit=dev` into a fresh folder needs the network (or a filled cache) and minutes, at every test
// run, on a shared 2-core machine. What it would prove is decided by two facts this test reads
// directly: the packages the server's own files import in the bundle esbuild really builds (its
// metafile, the same build as `npm start`'s), and the `dependencies` of package.json. Node resolves nothing
// else at run time: the bundled server starts its parse worker from server/dist/parse-worker.js
// (also checked here); the `esbuild` require in parse-pool.ts runs only from the TypeScript sources.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../build.ts';
import { REPO_ROOT } from '../src/config.ts';

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** One import of a package (or of Node) by the server's own code, bundled or left to Node. */
interface ExternalImport {
  /** The bundled source file that imports it (relative to the repository). */
  importer: string;
  /** The specifier as written: `node:fs`, `ajv/dist/2020.js`, `@fastify/static`. */
  path: string;
}

/**
 * Every import of a package or of Node by the repository's own files in the bundle (static,
 * dynamic and require), from esbuild's metafile: those it left external, and those it resolved
 * into node_modules and took in. Imports between packages are the packages' own business.
 */
function externalImports(metafile: Metafile): ExternalImport[] {
  return Object.entries(metafile.inputs)
    .filter(([importer]) => !importer.includes('node_modules/'))
    .flatMap(([importer, input]) =>
      input.imports
        .filter((entry) => entry.external || entry.path.includes('node_modules/'))
        .map((entry) => ({ importer, path: entry.original ?? entry.path })),
    );
}

/** `node:fs`, `fs`, `fs/promises`: built into Node, nothing to install. */
function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

/** The package a bare specifier loads from: `ajv/dist/2020.js` → `ajv`, `@a/b/c` → `@a/b`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The external imports a production install would not provide, as `package ← importer`. */
function undeclared(imports: ExternalImport[], pkg: PackageJson): string[] {
  const declared = new Set(Object.keys(pkg.dependencies ?? {}));
  const missing = imports
    .filter(({ path }) => !isBuiltin(path) && !declared.has(packageName(path)))
    .map(({ path, importer }) => `${packageName(path)} ← ${importer}`);
  return [...new Set(missing)].sort();
}

const packageJson = JSON.parse(
  readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
) as PackageJson;
let outdir: string;
let imports: ExternalImport[];
let inputs: string[];

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'folio-server-bundle-'));
  const metafile = await buildServer({ outdir, metafile: true });
  if (!metafile) throw new Error('esbuild returned no metafile');
  imports = externalImports(metafile);
  inputs = Object.keys(metafile.inputs);
}, 60_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('what the bundled server imports at run time', () => {
  it('is built into Node or declared in dependencies (a production install has it)', () => {
    // The check sees the packages the server really uses (not a vacuous pass on an empty list).
    const packages = imports.filter(({ path }) => !isBuiltin(path)).map(({ path }) => path);
    expect(packages.map(packageName)).toEqual(
      expect.arrayContaining(['fastify', 'better-sqlite3', 'ajv', 'ajv-formats']),
    );
    expect(undeclared(imports, packageJson)).toEqual([]);
  });

  it('holds for the shared/ and extension/ code the bundle takes in, not only server/', () => {
    const own = inputs.filter((file) => !file.includes('node_modules/'));
    const folders = new Set(own.map((file) => file.split('/')[0]));
    // Of the repository, the server may bundle only its own code and the neutral folders (the lint
    // zones say so).
    expect(
      [...folders].every((folder) => ['server', 'shared', 'extension'].includes(folder ?? '')),
    ).toBe(true);
    expect(folders.has('shared')).toBe(true);
    const fromShared = imports.filter(({ importer }) => !importer.startsWith('server/'));
    expect(undeclared(fromShared, packageJson)).toEqual([]);
  });

  it('reports a package the server imports once it is only a devDependency', () => {
    const { ajv, ...dependencies } = packageJson.dependencies ?? {};
    expect(ajv).toBeDefined();
    const moved: PackageJson = {
      dependencies,
      devDependencies: { ...packageJson.devDependencies, ajv: ajv ?? '*' },
    };
    // The validators the build compiled need Ajv's run-time helpers, as spec.ts needs Ajv.
    expect(undeclared(imports, moved)).toEqual([
      'ajv ← server/src/precompiled-validators.ts',
      'ajv ← server/src/spec.ts',
    ]);
  });

  it('reads builtins with and without `node:` and scoped package names', () => {
    const sample: ExternalImport[] = [
      { importer: 'server/src/a.ts', path: 'node:fs' },
      { importer: 'server/src/a.ts', path: 'fs/promises' },
      { importer: 'server/src/a.ts', path: '@fastify/static/dist/x.js' },
      { importer: 'shared/b.ts', path: '@scope/dev-only/sub' },
      { importer: 'shared/b.ts', path: 'dev-only-too' },
    ];
    expect(undeclared(sample, { dependencies: { '@fastify/static': '1' } })).toEqual([
      '@scope/dev-only ← shared/b.ts',
      'dev-only-too ← shared/b.ts',
    ]);
  });
});
