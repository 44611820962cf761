// `npm run bench`: measures the bundle, the server on a seeded archive and the app in Chromium,
// printing each figure as a JSON line and a table with the budgets at the end. It never fails on a
// number; it exits non-zero only when the benchmark itself breaks.
//
//   npm run bench                      everything, 100,000 pages
//   npm run bench -- --quick           fewer requests, 20,000 pages (development)
//   npm run bench -- --only=server     some of bundle, server, ingest, browser, import, export
//                                      (comma-separated)
//   npm run bench -- --pages=50000     another archive size
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchBrowser } from './browser.ts';
import { benchExport } from './export.ts';
import { buildApp, measureBundle } from './bundle.ts';
import { benchIngest } from './ingest.ts';
import { benchImport } from './import.ts';
import { log, Report } from './report.ts';
import { seededArchive, workingCopy } from './seed.ts';
import { benchList, benchUploadAndContent, benchViews, reportMemory } from './server.ts';
import { HttpClient, ServerProcess } from './server-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Seeded archives (and each run's scratch data) live here; FOLIO_BENCH_CACHE moves it. */
const CACHE_ROOT = process.env.FOLIO_BENCH_CACHE ?? join(REPO_ROOT, '.tmp', 'bench');
const SECTIONS = ['bundle', 'server', 'ingest', 'browser', 'import', 'export'] as const;
type Section = (typeof SECTIONS)[number];

interface Options {
  quick: boolean;
  sections: Set<Section>;
  pages: number;
}

function parseArgs(argv: readonly string[]): Options {
  const quick = argv.includes('--quick');
  let sections = new Set<Section>(SECTIONS);
  let pages = quick ? 20_000 : 100_000;
  for (const arg of argv) {
    const only = /^--only=(.+)$/.exec(arg)?.[1];
    if (only !== undefined) {
      const names = only.split(',').map((name) => name.trim());
      const unknown = names.filter((name) => !SECTIONS.includes(name as Section));
      if (unknown.length > 0) throw new Error(`unknown section(s): ${unknown.join(', ')}`);
      sections = new Set(names as Section[]);
    }
    const count = /^--pages=(\d+)$/.exec(arg)?.[1];
    if (count !== undefined) pages = Number(count);
  }
  return { quick, sections, pages };
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const report = new Report();
  const started = performance.now();
  let failures = 0;
  let server: ServerProcess | undefined;
  const section = async (name: string, run: () => Promise<void>) => {
    try {
      if (server?.exit !== undefined) throw new Error(`not run: ${server.exit}`);
      await run();
    } catch (error) {
      failures++;
      log(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      report.add({
        name: `bench.${name}.error`,
        value: null,
        unit: '',
        note: error instanceof Error ? error.message.split('\n')[0] : String(error),
      });
    }
  };

  report.add({ name: 'machine.cpus', value: cpus().length, unit: 'cores' });
  report.add({
    name: 'machine.load.start',
    value: loadavg()[0] ?? 0,
    unit: 'load',
    note: '1-minute load average: other work on the machine skews the figures',
  });
  report.add({
    name: 'machine.speed.start',
    value: timeFixedWork(),
    unit: 'ms',
    note: "a fixed one-core task's time (less is faster): the machine's speed moves from hour to hour, and the figures with it",
  });

  const distDir = mkdtempSync(join(tmpdir(), 'folio-bench-dist-'));
  const runDir = join(CACHE_ROOT, `run-${process.pid}`);
  let client: HttpClient | undefined;
  try {
    let built = false;
    if (options.sections.has('bundle') || options.sections.has('browser')) {
      built = buildApp(REPO_ROOT, distDir);
      if (options.sections.has('bundle')) {
        await section('bundle', async () => {
          if (!built) report.unmeasurable('bundle.first.js.gzip', 'kB', 'vite build failed');
          else measureBundle(report, distDir);
        });
      }
    }
    const seeded: Section[] = ['server', 'ingest', 'browser', 'export'];
    if (seeded.some((name) => options.sections.has(name))) {
      mkdirSync(CACHE_ROOT, { recursive: true });
      const seedStarted = performance.now();
      const archive = await seededArchive(CACHE_ROOT, options.pages);
      report.add({
        name: 'server.seed.pages',
        value: archive.info.live,
        unit: 'pages',
        note: archive.built
          ? `seeded in ${archive.info.seconds.toFixed(1)} s`
          : `from the cache (${archive.dir.replace(REPO_ROOT, '')})`,
      });
      workingCopy(archive, join(runDir, 'data'));
      log(`working copy ready after ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
      server = await ServerProcess.start({
        repoRoot: REPO_ROOT,
        dataDir: join(runDir, 'data'),
        staticDir: distDir,
        token: randomBytes(24).toString('base64url'),
      });
      client = new HttpClient(server.origin, server.token);
      report.add({
        name: 'server.start',
        value: server.startMs,
        unit: 'ms',
        note: 'spawn → listening (the bundled server, as npm start runs it)',
      });
      report.add({
        name: 'server.rss.idle',
        value: server.memory().rss,
        unit: 'MB',
        note: 'VmRSS after start',
      });
      const running = server;
      const http = client;
      if (options.sections.has('server')) {
        await section('server.list', () => benchList(report, http, running, archive.info, options));
        await section('server.views', () =>
          benchViews(report, http, running, archive.info, options),
        );
        await section('server.upload', () => benchUploadAndContent(report, http, running, options));
        await section('server.memory', () => reportMemory(report, running, options));
      }
      if (options.sections.has('ingest')) {
        await section('server.ingest', () => benchIngest(report, running, options));
      }
      if (options.sections.has('browser')) {
        await section('browser', async () => {
          if (!built) {
            report.unmeasurable('browser.list.first-rows.cold', 'ms', 'the app did not build');
            return;
          }
          await benchBrowser(report, {
            quick: options.quick,
            server: running,
            client: http,
            seed: archive.info,
          });
        });
      }
      if (options.sections.has('export')) {
        await section('export', () =>
          benchExport(report, running, {
            repoRoot: REPO_ROOT,
            scratch: runDir,
            pages: archive.info.live,
          }),
        );
      }
    }
    if (options.sections.has('import')) {
      await section('import', () =>
        benchImport(report, { repoRoot: REPO_ROOT, quick: options.quick }),
      );
    }
  } finally {
    client?.close();
    await server?.stop();
    rmSync(runDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  }

  report.add({ name: 'machine.load.end', value: loadavg()[0] ?? 0, unit: 'load' });
  report.add({ name: 'machine.speed.end', value: timeFixedWork(), unit: 'ms' });
  report.add({ name: 'bench.duration', value: (performance.now() - started) / 1000, unit: 's' });
  process.stdout.write(`\n${report.table()}\n`);
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(
      `the benchmark crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  },
);

/**
 * The time of a fixed task on one core (200,000 chained SHA-256 digests of 1 kB), in ms: to read
 * the run's figures against (this 2-core machine: 580 to 780 ms seen within an hour, the same
 * code's figures moving with it).
 */
function timeFixedWork(): number {
  const started = performance.now();
  const block = Buffer.alloc(1024);
  for (let round = 0; round < 200_000; round++) {
    createHash('sha256').update(block).digest().copy(block);
  }
  return performance.now() - started;
}
