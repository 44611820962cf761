// `npx tsx bench/hostile-inputs.ts`: how long the parsers take on hostile files and how much memory
// they need, each case in a fresh process (so the peak RSS is the case's own). Prints one line per
// case: the answer (a result or the error), the parse time and the process's peak RSS. It never
// fails on a number. `-- <case>` runs some cases; `--timeout=60` (s) per case. FOLIO_PARSERS_ROOT
// takes the parsers from another checkout (e.g. an unchanged one, for before/after figures).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as ParseWebpageModule from '../server/src/parse/parse-webpage.ts';
import type { WebpageExt } from '../server/src/parse/parse-webpage.ts';
import type * as MhtmlModule from '../shared/formats/mhtml.ts';
import type * as WebarchiveModule from '../shared/formats/webarchive.ts';
import {
  deepBplist,
  deepFramesXmlWebarchive,
  deepXmlPlist,
  hugeHeaderMhtml,
  hugeTitleHtml,
  manyFramesXmlWebarchive,
  manyPartsMhtml,
  nestedDivsHtml,
  sharedDataWebarchive,
  sharedFrameWebarchive,
  sharedResourceWebarchive,
} from '../test/support/hostile-inputs.ts';

const root = process.env.FOLIO_PARSERS_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const { parseWebpage } = (await import(
  `${root}/server/src/parse/parse-webpage.ts`
)) as typeof ParseWebpageModule;
const { parseMhtml } = (await import(`${root}/shared/formats/mhtml.ts`)) as typeof MhtmlModule;
const { parseWebarchive } = (await import(
  `${root}/shared/formats/webarchive.ts`
)) as typeof WebarchiveModule;

interface Case {
  /** Builds the input (not timed). */
  input: () => Uint8Array;
  /** Parses it; returns a one-line summary of the result. */
  run: (bytes: Uint8Array) => string;
}

const server = (ext: WebpageExt) => (bytes: Uint8Array) => {
  const page = parseWebpage(bytes, ext);
  return `title ${page.title.length} chars, excerpt ${page.excerpt.length}, text ${page.text.length}`;
};
const browserWebarchive = (bytes: Uint8Array) => {
  const archive = parseWebarchive(bytes);
  return `${archive.subframeArchives.length} subframes, ${archive.subresources.length} resources`;
};
const browserMhtml = (bytes: Uint8Array) => `${parseMhtml(bytes).parts.length} parts`;

const CASES: Record<string, Case> = {
  'shared-frames-webarchive (server)': {
    input: () => sharedFrameWebarchive(24),
    run: server('webarchive'),
  },
  'shared-frames-webarchive 20 levels (server)': {
    input: () => sharedFrameWebarchive(20),
    run: server('webarchive'),
  },
  'shared-frames-webarchive (browser)': {
    input: () => sharedFrameWebarchive(24),
    run: browserWebarchive,
  },
  'shared-resource x100k of 1 MB (browser)': {
    input: () => sharedResourceWebarchive(100_000, 1 << 20),
    run: browserWebarchive,
  },
  'shared-data x20k of 1 MB (browser)': {
    input: () => sharedDataWebarchive(20_000, 1 << 20),
    run: browserWebarchive,
  },
  'deep-frames-xml-webarchive 10k (browser)': {
    input: () => deepFramesXmlWebarchive(10_000),
    run: browserWebarchive,
  },
  'many-frames-xml-webarchive 20k (browser)': {
    input: () => manyFramesXmlWebarchive(20_000),
    run: browserWebarchive,
  },
  'deep-xml-plist 100k (server)': { input: () => deepXmlPlist(100_000), run: server('webarchive') },
  'deep-bplist 2000 (server)': { input: () => deepBplist(2000), run: server('webarchive') },
  'nested-divs 100k (server)': { input: () => nestedDivsHtml(100_000), run: server('html') },
  'title 5 MB (server)': { input: () => hugeTitleHtml(5 * 1024 * 1024), run: server('html') },
  'mhtml 1M parts (browser)': { input: () => manyPartsMhtml(1_000_000), run: browserMhtml },
  'mhtml 1M parts (server)': { input: () => manyPartsMhtml(1_000_000), run: server('mhtml') },
  'mhtml 20 MB part header (server)': {
    input: () => hugeHeaderMhtml(20 * 1024 * 1024),
    run: server('mhtml'),
  },
};

function runOne(name: string): void {
  const chosen = CASES[name];
  if (!chosen) throw new Error(`no case ${name}`);
  const bytes = chosen.input();
  const start = performance.now();
  let answer: string;
  try {
    answer = chosen.run(bytes);
  } catch (error) {
    answer =
      error instanceof Error ? `${error.name}: ${error.message.slice(0, 100)}` : String(error);
  }
  const ms = performance.now() - start;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${name.padEnd(44)} ${String(bytes.length).padStart(9)} B  ${ms.toFixed(0).padStart(7)} ms  ` +
      `peak RSS ${peakMb.toFixed(0).padStart(5)} MB  ${answer}`,
  );
}

const args = process.argv.slice(2);
const timeout = Number(
  /^--timeout=(\d+)$/.exec(args.find((a) => a.startsWith('--timeout=')) ?? '')?.[1] ?? 60,
);
const only = args.filter((arg) => !arg.startsWith('--'));
if (only.length === 1 && process.env.FOLIO_HOSTILE_CHILD === '1') {
  runOne(only[0]!);
} else {
  const self = fileURLToPath(import.meta.url);
  for (const name of only.length > 0 ? only : Object.keys(CASES)) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, name], {
      env: { ...process.env, FOLIO_HOSTILE_CHILD: '1' },
      encoding: 'utf8',
      timeout: timeout * 1000,
    });
    if (child.status === 0) process.stdout.write(child.stdout);
    else {
      const why = child.error
        ? `did not finish in ${timeout} s`
        : child.stderr.trim().split('\n').at(-1);
      console.log(`${name.padEnd(44)} ${why}`);
    }
  }
}
