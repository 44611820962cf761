// Bundle figures: builds the app with Vite's manifest into a scratch folder, then gzips (level 9)
// what the first screen loads (the entry, its static imports and their CSS) and each other chunk.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { log, type Report } from './report.ts';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

const KB = 1000;

/** Runs `vite build` into `outDir` (with a manifest); true when it produced index.html. */
export function buildApp(repoRoot: string, outDir: string): boolean {
  const vite = join(repoRoot, 'node_modules', '.bin', 'vite');
  log(`building the app into ${outDir}`);
  try {
    execFileSync(
      vite,
      ['build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } catch (error) {
    log(`vite build failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  return existsSync(join(outDir, 'index.html'));
}

function gzipKb(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length / KB;
}

/** A readable name for a hashed asset: `webpage-route-CiLkf6_l.js` → `webpage-route`. */
function chunkName(file: string): string {
  return basename(file)
    .replace(/-[A-Za-z0-9_-]{6,8}\.(js|css)$/, '')
    .replace(/\.(js|css)$/, '');
}

/** The build's manifest (`vite build --manifest`), or `null` when it wrote none. */
export function readManifest(distDir: string): Manifest | null {
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/**
 * What the first screen loads: the entry chunk and every chunk it imports statically (they are
 * modulepreloaded), with their CSS; `null` when the manifest has no entry. Dynamic imports are
 * loaded later and left out.
 */
export function firstScreen(manifest: Manifest): { js: Set<string>; css: Set<string> } | null {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry === true);
  if (entryKey === undefined) return null;
  const keys = new Set<string>();
  const visit = (key: string) => {
    if (keys.has(key)) return;
    keys.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entryKey);
  const js = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key];
    if (chunk === undefined) continue;
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
  }
  return { js, css };
}

/** The gzipped size (level 9) of `files` under `distDir`, in kB. */
export function gzippedKb(distDir: string, files: Iterable<string>): number {
  return [...files].reduce((total, file) => total + gzipKb(join(distDir, file)), 0);
}

export function measureBundle(report: Report, distDir: string): void {
  const manifest = readManifest(distDir);
  if (manifest === null) {
    report.unmeasurable('bundle.first.js.gzip', 'kB', 'the build wrote no manifest');
    return;
  }
  const first = firstScreen(manifest);
  if (first === null) {
    report.unmeasurable('bundle.first.js.gzip', 'kB', 'the manifest has no entry');
    return;
  }
  const { js: firstJs, css: firstCss } = first;
  const sum = (files: Iterable<string>) => gzippedKb(distDir, files);
  report.add({
    name: 'bundle.first.js.gzip',
    value: sum(firstJs),
    unit: 'kB',
    note: [...firstJs].map(chunkName).join(' + '),
  });
  report.add({
    name: 'bundle.first.css.gzip',
    value: sum(firstCss),
    unit: 'kB',
    note: [...firstCss].map(chunkName).join(' + '),
  });

  // Everything else the build emitted is loaded later: route chunks, shared chunks, workers.
  const assets = readdirSync(join(distDir, 'assets')).filter(
    (file) => file.endsWith('.js') || file.endsWith('.css'),
  );
  const lazy = assets
    .map((file) => `assets/${file}`)
    .filter((file) => !firstJs.has(file) && !firstCss.has(file))
    .map((file) => ({ file, kb: gzipKb(join(distDir, file)) }))
    .sort((a, b) => b.kb - a.kb);
  for (const { file, kb } of lazy) {
    const kind = file.endsWith('.css') ? 'css' : file.includes('.worker') ? 'worker' : 'js';
    report.add({ name: `bundle.lazy.${kind}.${chunkName(file)}.gzip`, value: kb, unit: 'kB' });
  }
  report.add({
    name: 'bundle.lazy.total.gzip',
    value: lazy.reduce((total, chunk) => total + chunk.kb, 0),
    unit: 'kB',
    n: lazy.length,
  });
}
