// The first-screen JS budget as a check that `npm test` runs: builds the app with its manifest into a
// scratch folder, sums the gzipped JS the first screen loads (the same measure as `npm run bench`'s
// `bundle.first.js.gzip`) and exits 1 when it is over its budget. Usage: tsx bench/check-bundle.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, firstScreen, gzippedKb, readManifest } from './bundle.ts';
import { budgetOf } from './report.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIGURE = 'bundle.first.js.gzip';

function check(): string | null {
  const budget = budgetOf(FIGURE);
  if (budget?.max === undefined) return `no budget is declared for ${FIGURE} (bench/report.ts)`;
  const max = budget.max;
  const distDir = mkdtempSync(join(tmpdir(), 'folio-bundle-check-'));
  try {
    if (!buildApp(REPO_ROOT, distDir)) return 'vite build failed';
    const manifest = readManifest(distDir);
    const first = manifest && firstScreen(manifest);
    if (!first) return 'the build wrote no manifest with an entry';
    const kb = gzippedKb(distDir, first.js);
    const chunks = first.js.size === 1 ? '1 chunk' : `${first.js.size} chunks`;
    const line = `first-screen JS: ${kb.toFixed(1)} kB gzip in ${chunks} (budget ${budget.label})`;
    if (kb > max) return `${line}: over budget by ${(kb - max).toFixed(1)} kB`;
    console.log(`${line}: within budget`);
    return null;
  } finally {
    rmSync(distDir, { recursive: true, force: true });
  }
}

const problem = check();
if (problem !== null) {
  console.error(`check:bundle: ${problem}`);
  process.exitCode = 1;
}
