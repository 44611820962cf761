// `npm run import`: sends a folder or a .zip of saved pages to an archive through the public API
// (POST /webpages), so it works against Folio and HamsterBase alike. It walks the input first (a
// list of names and sizes, never the bytes), then reads, encodes and sends at most `concurrency`
// files at a time, each read only when its turn comes (a zip entry is inflated then, bounded by
// shared/formats/zip-entries.ts). Resumable: every answer is appended to a state file keyed by
// (path, size, mtime) for files and (entry path, size, CRC-32) for zip entries, and a key found
// there is not sent again.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { lstat, open, opendir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  readZipDirectory,
  ZipEntryError,
} from '../../../shared/formats/zip-entries.ts';
import type { ZipLimits } from '../../../shared/formats/zip-entries.ts';
import { fileSource } from '../archive-io/zip-file-source.ts';

export type PageExt = 'html' | 'mhtml' | 'webarchive';

const EXT_BY_SUFFIX: Readonly<Record<string, PageExt>> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.mhtml': 'mhtml',
  '.mht': 'mhtml',
  '.webarchive': 'webarchive',
};

/** The page format a name promises, or null. */
export function pageExtOf(name: string): PageExt | null {
  const dot = name.lastIndexOf('.');
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  if (dot <= slash + 1) return null;
  return EXT_BY_SUFFIX[name.slice(dot).toLowerCase()] ?? null;
}

/** Folders deeper than this are not walked (a loop of bind mounts, a pathological tree). */
export const MAX_FOLDER_DEPTH = 64;

export interface ImportItem {
  /** The path shown to the user (relative to the input). */
  readonly name: string;
  readonly key: string;
  readonly ext: PageExt;
  readonly size: number;
  load(): Promise<Uint8Array>;
}

export interface Refusal {
  readonly name: string;
  readonly reason: string;
}

export interface ImportPlan {
  readonly items: ImportItem[];
  readonly skipped: Refusal[];
  readonly refused: Refusal[];
  close(): Promise<void>;
}

export interface ImportProgress {
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface ImportSummary {
  readonly total: number;
  readonly added: number;
  readonly existing: number;
  /** Found in the state file: sent by an earlier run, not sent again. */
  readonly resumed: number;
  readonly refused: Refusal[];
  readonly skipped: Refusal[];
  /** Requests sent by this run. */
  readonly sent: number;
  readonly bytes: number;
  readonly seconds: number;
}

export interface ImportOptions {
  readonly input: string;
  readonly baseUrl: string;
  readonly token: string;
  /** Where answers are remembered (JSON lines). */
  readonly statePath: string;
  readonly concurrency?: number;
  readonly limits?: ZipLimits;
  readonly onProgress?: (progress: ImportProgress) => void;
}

/** The whole import stops: the archive cannot be reached or refuses the token. */
export class ImportAbort extends Error {
  override name = 'ImportAbort';
}

/** Walks a folder: page files become items, anything else is skipped with a reason. */
export async function planFolder(root: string): Promise<ImportPlan> {
  const items: ImportItem[] = [];
  const skipped: Refusal[] = [];
  const stack: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop()!;
    const folder = await opendir(path);
    const names: string[] = [];
    for await (const entry of folder) names.push(entry.name);
    names.sort();
    for (const name of names.reverse()) {
      const full = join(path, name);
      const shown = relative(root, full).split(sep).join('/');
      const info = await lstat(full);
      if (info.isSymbolicLink()) {
        skipped.push({ name: shown, reason: 'a symbolic link (not followed)' });
      } else if (info.isDirectory()) {
        if (depth + 1 > MAX_FOLDER_DEPTH) {
          skipped.push({ name: shown, reason: `deeper than ${MAX_FOLDER_DEPTH} folders` });
        } else stack.push({ path: full, depth: depth + 1 });
      } else if (!info.isFile()) {
        skipped.push({ name: shown, reason: 'not a regular file' });
      } else {
        const ext = pageExtOf(name);
        if (ext === null) {
          skipped.push({ name: shown, reason: 'not a saved page (html, mhtml or webarchive)' });
        } else {
          items.push({
            name: shown,
            key: `file\0${shown}\0${info.size}\0${Math.floor(info.mtimeMs)}`,
            ext,
            size: info.size,
            load: async () => new Uint8Array(await readFile(full)),
          });
        }
      }
    }
  }
  items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { items, skipped, refused: [], close: () => Promise.resolve() };
}

/**
 * Reads a zip's directory (a ZipError when it is damaged: nothing is sent then). Entries that are
 * refused by structure are listed as refused, other non-pages as skipped; directories are left out.
 */
export async function planZip(
  path: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ImportPlan> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const source = fileSource(handle, size);
    const entries = await readZipDirectory(source, limits);
    const items: ImportItem[] = [];
    const skipped: Refusal[] = [];
    const refused: Refusal[] = [];
    for (const entry of entries) {
      if (entry.kind === 'directory' && entry.problem === null) continue;
      if (entry.problem !== null) {
        refused.push({ name: entry.rawName, reason: entry.problem });
        continue;
      }
      const ext = pageExtOf(entry.path);
      if (ext === null) {
        skipped.push({ name: entry.path, reason: 'not a saved page (html, mhtml or webarchive)' });
        continue;
      }
      items.push({
        name: entry.path,
        key: `zip\0${entry.path}\0${entry.size}\0${entry.crc32}`,
        ext,
        size: entry.size,
        load: () => inflateEntry(source, entry, limits),
      });
    }
    return { items, skipped, refused, close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

interface StateLine {
  k: string;
  id?: string;
  refused?: string;
}

/** The state file's lines (a line cut by a crash is ignored). */
export function readState(statePath: string): Map<string, StateLine> {
  const state = new Map<string, StateLine>();
  let text = '';
  try {
    text = readFileSync(statePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const parsed = JSON.parse(line) as StateLine;
      if (typeof parsed.k === 'string') state.set(parsed.k, parsed);
    } catch {
      // A half-written last line.
    }
  }
  return state;
}

/** Where `npm run import` keeps its state for an input and an archive, in the data folder. */
export function defaultStatePath(dataDir: string, input: string, baseUrl: string): string {
  const digest = createHash('sha256').update(`${input}\0${baseUrl}`).digest('hex').slice(0, 16);
  return join(dataDir, 'imports', `${digest}.jsonl`);
}

interface Answer {
  kind: 'stored' | 'refused';
  id?: string;
  existed?: boolean;
  reason?: string;
}

/** Slack for the server's whole-second Date header (see src/features/upload/upload-request.ts). */
const CLOCK_SLACK_MS = 2000;

async function send(options: ImportOptions, item: ImportItem, bytes: Uint8Array): Promise<Answer> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/public/api/v1/webpages`;
  const body = `{"content":"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')}","ext":"${item.ext}"}`;
  const sentAt = Date.now();
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
      body,
    });
  } catch (error) {
    throw new ImportAbort(
      `cannot reach the archive at ${options.baseUrl}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    );
  }
  const answeredAt = Date.now();
  const text = await response.text();
  let json: {
    success?: boolean;
    data?: { id?: string; firstAddTime?: number };
    message?: string;
    error?: string;
  } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = { message: text.slice(0, 200) };
  }
  if (response.status === 401) {
    throw new ImportAbort(`the archive refused the token (401 ${json.message ?? ''})`);
  }
  if (response.status === 200 && json.success === true && typeof json.data?.id === 'string') {
    // A new record's firstAddTime is set while the request is handled. On the server's clock the
    // request started no earlier than Date - (answeredAt - sentAt).
    const date = Date.parse(response.headers.get('date') ?? '');
    const start = Number.isNaN(date) ? sentAt : Math.min(sentAt, date - (answeredAt - sentAt));
    const existed = (json.data.firstAddTime ?? Infinity) < start - CLOCK_SLACK_MS;
    return { kind: 'stored', id: json.data.id, existed };
  }
  if (response.status >= 500 || response.status === 429) {
    throw new ImportAbort(`the archive failed (${response.status} ${json.message ?? ''})`);
  }
  const code = json.error ? `${json.error} ` : '';
  return { kind: 'refused', reason: `${code}${json.message ?? `HTTP ${response.status}`}`.trim() };
}

/** Runs an import of `options.input` (a folder, or a file ending in .zip). */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const info = await lstat(options.input);
  const plan = info.isDirectory()
    ? await planFolder(options.input)
    : await planZip(options.input, options.limits);
  mkdirSync(dirname(options.statePath), { recursive: true });
  const state = readState(options.statePath);
  const refused = [...plan.refused];
  let added = 0;
  let existing = 0;
  let resumed = 0;
  let sent = 0;
  let done = 0;
  let bytes = 0;
  const total = plan.items.length;
  const totalBytes = plan.items.reduce((sum, item) => sum + item.size, 0);
  const report = () => options.onProgress?.({ done, total, bytes, totalBytes });
  let next = 0;
  let aborted: unknown;
  const worker = async () => {
    while (aborted === undefined && next < plan.items.length) {
      const item = plan.items[next++]!;
      const known = state.get(item.key);
      if (known?.id !== undefined) {
        resumed++;
      } else if (known?.refused !== undefined) {
        refused.push({ name: item.name, reason: `${known.refused} (an earlier run)` });
      } else {
        let answer: Answer;
        try {
          const content = await item.load();
          sent++;
          answer = await send(options, item, content);
        } catch (error) {
          if (error instanceof ZipEntryError) answer = { kind: 'refused', reason: error.message };
          else if (error instanceof ImportAbort) {
            aborted = error;
            return;
          } else {
            answer = {
              kind: 'refused',
              reason: `could not be read: ${error instanceof Error ? error.message : String(error)}`,
            };
          }
        }
        if (answer.kind === 'stored') {
          if (answer.existed) existing++;
          else added++;
          appendFileSync(options.statePath, `${JSON.stringify({ k: item.key, id: answer.id })}\n`);
        } else {
          refused.push({ name: item.name, reason: answer.reason ?? 'refused' });
          appendFileSync(
            options.statePath,
            `${JSON.stringify({ k: item.key, refused: answer.reason })}\n`,
          );
        }
      }
      done++;
      bytes += item.size;
      report();
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, options.concurrency ?? 4) }, () => worker()),
    );
  } finally {
    await plan.close();
  }
  if (aborted !== undefined) throw aborted;
  return {
    total,
    added,
    existing,
    resumed,
    refused,
    skipped: plan.skipped,
    sent,
    bytes,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The summary as the CLI prints it. */
export function summaryLines(summary: ImportSummary, limit = 50): string[] {
  const lines = [
    `${summary.total} saved pages: ${summary.added} added, ${summary.existing} already there, ` +
      `${summary.resumed} imported by an earlier run, ${summary.refused.length} refused; ` +
      `${summary.skipped.length} other files skipped (${summary.sent} sent in ${summary.seconds.toFixed(1)} s)`,
  ];
  const list = (title: string, entries: readonly Refusal[]) => {
    if (entries.length === 0) return;
    lines.push(`${title}:`);
    for (const entry of entries.slice(0, limit)) lines.push(`  ${entry.name}: ${entry.reason}`);
    if (entries.length > limit) lines.push(`  … and ${entries.length - limit} more`);
  };
  list('Refused', summary.refused);
  list('Skipped', summary.skipped);
  return lines;
}
