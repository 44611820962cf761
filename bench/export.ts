// The export section of `npm run bench` (`--only=export`): the whole bench archive exported as one
// .zip through the API (time, bytes, the server's peak RSS while it streams), then restored from
// that zip into an empty folder with `npm run restore` (time, the restore's peak RSS).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { log, type Report } from './report.ts';
import type { ServerProcess } from './server-process.ts';

/** Largest VmRSS (MB) of a process seen by sampling every 50 ms while `work` runs. */
async function peakRssWhile<T>(pid: () => number | undefined, work: Promise<T>) {
  let peak = 0;
  const sample = () => {
    const id = pid();
    if (id === undefined) return;
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${id}/status`, 'utf8'));
      if (match?.[1] !== undefined) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {
      // The process has ended.
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await work;
    sample();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}

export async function benchExport(
  report: Report,
  server: ServerProcess,
  options: { repoRoot: string; scratch: string; pages: number },
): Promise<void> {
  const folder = mkdtempSync(join(options.scratch, 'export-'));
  const zipPath = join(folder, 'export.zip');
  try {
    const before = server.memory().rss;
    const started = performance.now();
    const exported = await peakRssWhile(
      () => server.pid,
      (async () => {
        const response = await fetch(`${server.origin}/public/api/v1/folio/export`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}` },
        });
        if (response.status !== 200 || response.body === null) {
          throw new Error(`export answered ${response.status}: ${await response.text()}`);
        }
        await pipeline(
          Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
          createWriteStream(zipPath),
        );
      })(),
    );
    const exportMs = performance.now() - started;
    const bytes = statSync(zipPath).size;
    report.add({
      name: 'export.all.time',
      value: exportMs / 1000,
      unit: 's',
      note: `${options.pages} pages, ${(bytes / 1024 / 1024).toFixed(0)} MB zip, streamed to a file`,
    });
    report.add({
      name: 'export.all.server.rss.peak',
      value: exported.peak,
      unit: 'MB',
      note: `server VmRSS sampled every 50 ms while exporting (${before.toFixed(0)} MB before)`,
    });
    log(`exported ${bytes} bytes in ${(exportMs / 1000).toFixed(1)} s`);

    const dataDir = join(folder, 'restored');
    const restoreStarted = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/src/archive-io/restore-cli.ts', zipPath, '--data-dir', dataDir],
      { cwd: options.repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const restored = await peakRssWhile(
      () => child.pid,
      new Promise<number | null>((resolve) => child.once('close', resolve)),
    );
    if (restored.value !== 0) throw new Error(`the restore exited ${restored.value}: ${output}`);
    report.add({
      name: 'restore.all.time',
      value: (performance.now() - restoreStarted) / 1000,
      unit: 's',
      note: `npm run restore of that zip into an empty folder: ${output.trim().split('\n')[0] ?? ''}`,
    });
    report.add({
      name: 'restore.all.rss.peak',
      value: restored.peak,
      unit: 'MB',
      note: 'the restore process, VmRSS sampled every 50 ms',
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
