// `npm run restore -- <export.zip> [--data-dir <dir>]`: restores a Folio export into the archive in
// <dir> (FOLIO_DATA_DIR, ./data by default), writing straight into its store (for archives too big
// to upload). Run it while no server uses that folder. Exit code: 0 all restored or already there,
// 1 some pages failed (listed), 2 the zip was refused (nothing written) or a usage error.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { prepareDataDir } from '../config.ts';
import { DEFAULT_PARSE_TIMEOUT_MS, parsePool } from '../parse/parse-pool.ts';
import { openStore } from '../store/store.ts';
import { restoreArchive, RestoreRefused } from './restore-archive.ts';

const USAGE = `Usage: npm run restore -- <export.zip> [--data-dir <dir>]

Restores a Folio export (.zip) into the archive in <dir> (FOLIO_DATA_DIR, ./data by default):
the same ids, fields, highlights and views. Pages already there are skipped. Stop the server
that uses the folder first.`;

const DEFAULT_MAX_ORIGINAL_MB = 200;

async function main(args: readonly string[]): Promise<number> {
  let zip: string | undefined;
  let dataDir: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (arg === '--data-dir') {
      dataDir = args[++index];
      if (dataDir === undefined) throw new Error('--data-dir needs a folder');
    } else if (arg !== undefined && !arg.startsWith('--') && zip === undefined) {
      zip = arg;
    } else {
      console.error(`unknown argument ${JSON.stringify(arg)}\n\n${USAGE}`);
      return 2;
    }
  }
  if (zip === undefined) {
    console.error(USAGE);
    return 2;
  }
  const folder =
    dataDir === undefined
      ? prepareDataDir()
      : (mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 }), resolve(dataDir));
  const maxMb = Number(process.env.FOLIO_MAX_UPLOAD_MB ?? DEFAULT_MAX_ORIGINAL_MB);
  const store = await openStore(folder);
  parsePool.retain();
  const started = Date.now();
  try {
    const report = await restoreArchive(store, resolve(zip), {
      maxOriginalBytes:
        (Number.isFinite(maxMb) && maxMb > 0 ? maxMb : DEFAULT_MAX_ORIGINAL_MB) * 1024 * 1024,
      parseTimeoutMs: DEFAULT_PARSE_TIMEOUT_MS,
      now: Date.now,
      onProgress: (done, total) => {
        if (done % 1000 === 0 || done === total) process.stderr.write(`\r${done} / ${total} pages`);
      },
    });
    process.stderr.write('\n');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Restored ${report.restored} of ${report.total} pages into ${folder} in ${seconds} s; ` +
        `${report.skipped.length} already there; ${report.failed.length} failed; ` +
        `views: ${report.views.restored} restored, ${report.views.skipped} already there.`,
    );
    for (const failure of report.failed) console.log(`failed ${failure.id}: ${failure.reason}`);
    return report.failed.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof RestoreRefused) {
      console.error(`Refused, nothing was restored: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close();
    await parsePool.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
