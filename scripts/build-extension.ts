// Builds the "Save to Folio" browser extension (extension/) into dist-extension/, a folder to
// load unpacked in Chromium, and dist-extension.zip (the same files). `npm run build:extension`;
// e2e/extension.spec.ts calls `buildExtension` before it loads the folder.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { iconPng } from './make-icons.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE = join(ROOT, 'extension');

export const EXTENSION_DIR = join(ROOT, 'dist-extension');
export const EXTENSION_ZIP = join(ROOT, 'dist-extension.zip');

/** The files copied as they are. */
const STATIC_FILES = ['options.html', 'options.css'];

export async function buildExtension(
  outDir: string = EXTENSION_DIR,
  zipPath: string = EXTENSION_ZIP,
): Promise<{ outDir: string; zipPath: string; files: string[] }> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      background: join(SOURCE, 'src/background.ts'),
      options: join(SOURCE, 'src/options.ts'),
    },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    target: 'chrome120',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const manifest = JSON.parse(readFileSync(join(SOURCE, 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  writeFileSync(
    join(outDir, 'manifest.json'),
    `${JSON.stringify({ ...manifest, version }, null, 2)}\n`,
  );
  for (const file of STATIC_FILES) copyFileSync(join(SOURCE, file), join(outDir, file));
  writeFileSync(join(outDir, 'icon-128.png'), iconPng(128));

  const files = ['manifest.json', 'background.js', 'options.js', ...STATIC_FILES, 'icon-128.png'];
  const entries = Object.fromEntries(
    files.map((file) => [file, new Uint8Array(readFileSync(join(outDir, file)))]),
  );
  writeFileSync(zipPath, zipSync(entries, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') }));
  return { outDir, zipPath, files };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { outDir, zipPath, files } = await buildExtension();
  console.log(
    `Built ${files.length} files into ${relative(ROOT, outDir)}/ and ${relative(ROOT, zipPath)}`,
  );
}
