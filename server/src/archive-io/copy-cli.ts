// `npm run copy -- --from <baseUrl> --from-token <t> (--to <baseUrl> --to-token <t> | --data-dir <dir>)`
// copies every page of an archive (a Folio or a HamsterBase) with its labels, likes, read state,
// highlights and views into another (shared/archive-copy/copy-archive.ts). Run it again to finish
// a copy that stopped: what the target has is not copied twice.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ArchiveApi } from '../../../shared/archive-copy/archive-api.ts';
import {
  ApiTarget,
  copyArchive,
  type CopyProgress,
  type CopyTarget,
} from '../../../shared/archive-copy/copy-archive.ts';
import { parsePool } from '../parse/parse-pool.ts';
import { openStore, type Store } from '../store/store.ts';
import { StoreTarget } from './store-target.ts';

const USAGE = `Usage: npm run copy -- --from <baseUrl> --from-token <token>
                      (--to <baseUrl> --to-token <token> | --data-dir <dir>)
                      [--no-views] [--concurrency <n>]

Copies every page of the source archive (a Folio or a HamsterBase) with its labels, likes, read
state and highlights, and its views (unless --no-views), into the target: another server through
its API, or the archive folder <dir> (stop the server that uses it first). Pages the target has
are not copied again (their missing highlights and labels are added): run it again to resume.`;

class UsageError extends Error {}

function parseArgs(args: readonly string[]) {
  const values = new Map<string, string>();
  let copyViews = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--no-views') {
      copyViews = false;
      continue;
    }
    if (
      !['--from', '--from-token', '--to', '--to-token', '--data-dir', '--concurrency'].includes(arg)
    ) {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
    const value = args[++index];
    if (value === undefined) throw new UsageError(`${arg} needs a value`);
    values.set(arg, value);
  }
  const from = values.get('--from');
  const fromToken = values.get('--from-token') ?? process.env.FOLIO_COPY_FROM_TOKEN;
  if (from === undefined || fromToken === undefined)
    throw new UsageError('--from and --from-token are needed');
  const to = values.get('--to');
  const dataDir = values.get('--data-dir');
  if ((to === undefined) === (dataDir === undefined))
    throw new UsageError('give --to or --data-dir');
  const toToken = values.get('--to-token') ?? process.env.FOLIO_COPY_TO_TOKEN;
  if (to !== undefined && toToken === undefined) throw new UsageError('--to needs --to-token');
  const concurrency = Number(values.get('--concurrency') ?? 4);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new UsageError('--concurrency is a number from 1 to 32');
  }
  return { from, fromToken, to, toToken, dataDir, copyViews, concurrency };
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const source = new ArchiveApi({ baseUrl: options.from, token: options.fromToken });
  let store: Store | undefined;
  let target: CopyTarget;
  if (options.dataDir !== undefined) {
    const folder = resolve(options.dataDir);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    store = await openStore(folder);
    parsePool.retain();
    target = new StoreTarget(store);
  } else {
    target = new ApiTarget(new ArchiveApi({ baseUrl: options.to!, token: options.toToken! }));
  }
  const started = Date.now();
  try {
    let last = 0;
    const result = await copyArchive(source, target, {
      copyViews: options.copyViews,
      concurrency: options.concurrency,
      onProgress: (progress: CopyProgress) => {
        if (Date.now() - last < 500) return;
        last = Date.now();
        process.stderr.write(`\r${progress.done} / ${progress.total ?? '?'} pages`);
      },
    });
    process.stderr.write('\n');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Copied ${result.copied} of ${result.done} pages in ${seconds} s; ${result.already} already ` +
        `there (${result.completed} completed); ${result.failed.length} failed; views: ` +
        `${result.views.copied} copied, ${result.views.already} already there.`,
    );
    for (const failure of result.failed) {
      console.log(`failed ${failure.id} (${JSON.stringify(failure.title)}): ${failure.reason}`);
    }
    return result.failed.length === 0 ? 0 : 1;
  } finally {
    if (store !== undefined) {
      await store.close();
      await parsePool.release();
    }
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
