// `npm run bench -- --only=import`: `npm run import` of 10,000 small pages (2,000 with --quick) into
// an empty archive served by the bundled server: a folder, the same folder again (resumed: nothing
// sent), and a .zip of other pages, with the importing process's memory while it reads the zip.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { runImport } from '../server/src/import/import-files.ts';
import { log, type Report } from './report.ts';
import { ServerProcess } from './server-process.ts';

export interface ImportBenchOptions {
  repoRoot: string;
  quick: boolean;
}

const MB = 1024 * 1024;

/** A small saved page (~2 kB) whose bytes are unique to `seed`. */
function smallPage(seed: string): Uint8Array {
  const words = 'archive page saved reading later import folder zip bench'.split(' ');
  const body = Array.from({ length: 40 }, (_, i) => words[i % words.length]).join(' ');
  return new TextEncoder().encode(
    `<!doctype html><html><head><meta charset="utf-8"><title>Page ${seed}</title>` +
      `<meta name="description" content="A small page for the import bench"></head>` +
      `<body><h1>Page ${seed}</h1><p>${body}</p><p>${body}</p><p>${seed}</p></body></html>`,
  );
}

export async function benchImport(report: Report, options: ImportBenchOptions): Promise<void> {
  const count = options.quick ? 2_000 : 10_000;
  const scratch = mkdtempSync(join(tmpdir(), 'folio-bench-import-'));
  const dataDir = join(scratch, 'data');
  const staticDir = join(scratch, 'static');
  mkdirSync(dataDir);
  mkdirSync(staticDir);
  const server = await ServerProcess.start({
    repoRoot: options.repoRoot,
    dataDir,
    staticDir,
    token: randomBytes(24).toString('base64url'),
  });
  try {
    const run = `${process.pid}-${Date.now()}`;
    const folder = join(scratch, 'pages');
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const dir = join(folder, `part-${i % 100}`);
      if (i < 100) mkdirSync(dir, { recursive: true });
      const page = smallPage(`folder-${run}-${i}`);
      bytes += page.length;
      writeFileSync(join(dir, `page-${i}.html`), page);
    }
    log(`import: ${count} pages written (${(bytes / MB).toFixed(1)} MB)`);
    const base = {
      baseUrl: server.origin,
      token: server.token,
      concurrency: 4,
    };
    const first = await runImport({
      ...base,
      input: folder,
      statePath: join(scratch, 'folder.jsonl'),
    });
    if (first.added !== count)
      throw new Error(`the folder import added ${first.added} of ${count}`);
    report.add({
      name: 'import.folder.pages_per_s',
      value: count / first.seconds,
      unit: 'pages/s',
      note: `${count} small html pages (${(bytes / count / 1024).toFixed(1)} kB each), 4 at a time, through the public API`,
    });
    const again = await runImport({
      ...base,
      input: folder,
      statePath: join(scratch, 'folder.jsonl'),
    });
    report.add({
      name: 'import.folder.resume',
      value: again.seconds * 1000,
      unit: 'ms',
      note: `the same folder again: ${again.sent} sent, ${again.resumed} remembered`,
    });

    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i < count; i++)
      entries[`part-${i % 100}/page-${i}.html`] = smallPage(`zip-${run}-${i}`);
    const zipPath = join(scratch, 'pages.zip');
    const zip = zipSync(entries);
    writeFileSync(zipPath, zip);
    for (const key of Object.keys(entries)) delete entries[key];
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const zipped = await runImport({
      ...base,
      input: zipPath,
      statePath: join(scratch, 'zip.jsonl'),
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().rss);
      },
    });
    clearInterval(sampler);
    if (zipped.added !== count) throw new Error(`the zip import added ${zipped.added} of ${count}`);
    report.add({
      name: 'import.zip.pages_per_s',
      value: count / zipped.seconds,
      unit: 'pages/s',
      note: `a ${(zip.length / MB).toFixed(1)} MB zip of ${count} pages, each entry inflated when sent`,
    });
    report.add({
      name: 'import.zip.client.rss.growth',
      value: (peak - before) / MB,
      unit: 'MB',
      note: `the importing process's peak RSS minus its RSS before (${(before / MB).toFixed(0)} MB)`,
    });
    report.add({
      name: 'import.server.rss.peak',
      value: server.memory().peak,
      unit: 'MB',
      note: 'VmHWM of the server after both imports',
    });
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
