// The request validators as the server's bundle carries them (server/build.ts): the standalone
// code from precompile-validators.ts, bundled the same way and loaded as a module.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { precompiledValidatorsSource } from '../../src/precompile-validators.ts';
import type { PrecompiledValidators } from '../../src/precompiled-validators.ts';
import type { ApiSpec } from '../../src/spec.ts';

export async function loadPrecompiledValidators(spec: ApiSpec): Promise<PrecompiledValidators> {
  const result = await build({
    stdin: {
      contents: precompiledValidatorsSource(spec),
      resolveDir: fileURLToPath(new URL('../../src', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const dir = mkdtempSync(join(tmpdir(), 'folio-precompiled-'));
  try {
    const file = join(dir, 'precompiled.mjs');
    writeFileSync(file, result.outputFiles[0]?.text ?? '');
    const loaded = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      precompiled: PrecompiledValidators;
    };
    return loaded.precompiled;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
