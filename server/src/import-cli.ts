// `npm run import -- <folder|file.zip> [--url <base> --token <token>] [--state <file>]
// [--concurrency <n>]`: sends every saved page (html, mhtml, webarchive) of a folder (recursively) or
// a .zip to an archive through the public API. Without --url it is the local server of
// FOLIO_DATA_DIR (HOST, PORT and its token, like `npm start`). Prints progress on stderr and a
// summary on stdout; the exit code is 1 when a file was refused, 2 on a usage error.
import { resolve } from 'node:path';
import { loadConfig } from './config.ts';
import { defaultStatePath, ImportAbort, runImport, summaryLines } from './import/import-files.ts';
import { DEFAULT_ZIP_LIMITS, ZipError } from '../../shared/formats/zip-entries.ts';

const USAGE = `Usage: npm run import -- <folder|file.zip> [options]

  --url <base>        the archive (default: the local server, http://HOST:PORT)
  --token <token>     its API token (default: FOLIO_TOKEN or the local <data>/token)
  --state <file>      where finished files are remembered (default: <data>/imports/<hash>.jsonl)
  --concurrency <n>   uploads at a time (default 4)

Sends every .html/.htm/.xhtml/.mhtml/.mht/.webarchive file (other files are skipped). Run it
again to send only what is missing.`;

class UsageError extends Error {
  override name = 'UsageError';
}

interface Args {
  input: string;
  url?: string;
  token?: string;
  state?: string;
  concurrency: number;
}

function parseArgs(argv: readonly string[]): Args {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const match = /^--(url|token|state|concurrency)(?:=(.*))?$/.exec(arg);
    if (match) {
      const value = match[2] ?? argv[++index];
      if (value === undefined) throw new UsageError(`--${match[1]} needs a value`);
      values[match[1]!] = value;
    } else if (arg === '--help' || arg === '-h') {
      throw new UsageError('');
    } else if (arg.startsWith('--')) {
      throw new UsageError(`unknown option ${arg}`);
    } else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError('give one folder or .zip file');
  const concurrency = Number(values.concurrency ?? '4');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UsageError('--concurrency must be an integer from 1 to 64');
  }
  return {
    input: resolve(positional[0]!),
    url: values.url,
    token: values.token,
    state: values.state,
    concurrency,
  };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const baseUrl = args.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const token = args.token ?? config.token;
  const statePath = resolve(args.state ?? defaultStatePath(config.dataDir, args.input, baseUrl));
  let lastPrint = 0;
  const summary = await runImport({
    input: args.input,
    baseUrl,
    token,
    statePath,
    concurrency: args.concurrency,
    limits: { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: config.maxUploadBytes },
    onProgress: ({ done, total, bytes, totalBytes }) => {
      const now = Date.now();
      if (now - lastPrint < 500 && done < total) return;
      lastPrint = now;
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
      process.stderr.write(`${done} of ${total} files, ${mb(bytes)} of ${mb(totalBytes)} MB\n`);
    },
  });
  for (const line of summaryLines(summary)) process.stdout.write(`${line}\n`);
  process.stderr.write(`State: ${statePath}\n`);
  return summary.refused.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message ? `${error.message}\n\n` : ''}${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    const message =
      error instanceof ZipError || error instanceof ImportAbort
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`The import stopped: ${message}\nNothing more was sent.\n`);
    process.exitCode = 1;
  },
);
