// Restores a Folio export (export-archive.ts) into a store: the same ids, fields, highlights and
// views. The zip is checked whole first (export-zip.ts: names, symlinks, duplicates, sizes) and
// `folio-export.json` is read through once to check every line, so a zip that is refused leaves
// the store untouched. Then each page is written on its own: its original is streamed into the
// blob store's staging (or, up to 64 kB, read into memory), checked against its id (the sha256 of
// the bytes), moved in, and the page with its labels and highlights is recorded in one
// transaction (with a small original's bytes, kept in the database as an upload's are); a page
// that fails leaves nothing.
// Pages already in the store are skipped (a restore can be run again).
import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import type { Statement } from 'better-sqlite3';
import { hostOf } from '../links.ts';
import { parsePool } from '../parse/parse-pool.ts';
import type { ZipEntry, ZipSource } from '../../../shared/formats/zip-entries.ts';
import { createRequestValidators, loadSpec, RequestValidationError } from '../spec.ts';
import { ORIGINAL_IN_DATABASE_MAX_BYTES } from '../store/originals.ts';
import { titleKey } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { EXPORT_JSON, isWebpageExt, isWebpageId, originalEntryName } from './entry-names.ts';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedHighlight,
  type ExportedView,
  type ExportedWebpage,
} from './export-format.ts';
import { exportEntryBytes, readExportZip, RestoreRefused } from './export-zip.ts';
import { fileSource } from './zip-file-source.ts';

export { RestoreRefused };

export interface RestoreOptions {
  /** Largest original file (the server's upload limit). */
  maxOriginalBytes: number;
  /** The time limit of a page's parse (for its searchable text), ms. */
  parseTimeoutMs: number;
  now: () => number;
  onProgress?: (done: number, total: number) => void;
}

export interface RestoreReport {
  total: number;
  restored: number;
  /** Pages already in the archive (left as they are). */
  skipped: string[];
  failed: { id: string; reason: string }[];
  views: { restored: number; skipped: number };
}

/** Largest `folio-export.json` (100,000 pages take about 60 MB). */
export const MAX_EXPORT_JSON_BYTES = 2 * 1024 * 1024 * 1024;
/** Largest line of it: one page with its highlights. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const MAX_TEXT = 1024 * 1024;
const MAX_ITEMS = 100_000;

/**
 * Restores `zipPath` into `store`. Throws RestoreRefused (export-zip.ts) before
 * anything is written when the zip is refused; otherwise reports what was restored, skipped
 * and failed.
 */
export async function restoreArchive(
  store: Store,
  zipPath: string,
  options: RestoreOptions,
): Promise<RestoreReport> {
  const handle = await open(zipPath, 'r');
  try {
    const source = fileSource(handle, (await handle.stat()).size);
    const byName = await readExportZip(source, {
      maxJsonBytes: MAX_EXPORT_JSON_BYTES,
      maxOriginalBytes: options.maxOriginalBytes,
      maxEntries: 2 * MAX_ITEMS + 2,
    });
    const json = byName.get(EXPORT_JSON);
    if (json === undefined) throw new RestoreRefused(`the zip has no ${EXPORT_JSON}`);

    // Pass 1: every line checked, nothing written.
    let views: ExportedView[] = [];
    let total = 0;
    for await (const item of exportItems(source, json)) {
      if (item.kind === 'header') {
        views = item.views;
        continue;
      }
      total++;
      const original = byName.get(item.page.file);
      if (original === undefined) {
        throw new RestoreRefused(`the zip has no ${item.page.file}`);
      }
      if (original.size !== item.page.size) {
        throw new RestoreRefused(`${item.page.file} is not the size its page says`);
      }
    }

    // Pass 2: each page on its own.
    const writer = writerOf(store);
    const report: RestoreReport = {
      total,
      restored: 0,
      skipped: [],
      failed: [],
      views: { restored: 0, skipped: 0 },
    };
    let done = 0;
    for await (const item of exportItems(source, json)) {
      if (item.kind === 'header') continue;
      const { page } = item;
      if (store.webpages.find(page.id) !== undefined) {
        report.skipped.push(page.id);
      } else {
        const failure = await restorePage(store, writer, source, page, byName, options);
        if (failure === undefined) report.restored++;
        else report.failed.push({ id: page.id, reason: failure });
      }
      options.onProgress?.(++done, total);
    }
    for (const view of views) {
      if (store.views.restore(view)) report.views.restored++;
      else report.views.skipped++;
    }
    return report;
  } finally {
    await handle.close();
  }
}

async function restorePage(
  store: Store,
  writer: RestoreWriter,
  source: ZipSource,
  page: ExportedWebpage,
  byName: ReadonlyMap<string, ZipEntry>,
  options: RestoreOptions,
): Promise<string | undefined> {
  const entry = byName.get(page.file);
  if (entry === undefined) return 'its original is missing';
  return storePage(store, writer, page, exportEntryBytes(source, entry), options);
}

type PageOriginal = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
type PageOptions = Pick<RestoreOptions, 'parseTimeoutMs' | 'now'>;

/**
 * Writes one page with its original: the bytes streamed into the blob store's staging and checked
 * against the id, parsed for the search text, moved in, then the page with its labels and
 * highlights in one transaction. Returns why it failed (nothing of it is left then), or undefined.
 * A small original (up to 64 kB) is kept in the database instead, as an upload's is.
 */
async function storePage(
  store: Store,
  writer: RestoreWriter,
  page: ExportedWebpage,
  chunks: PageOriginal,
  options: PageOptions,
): Promise<string | undefined> {
  if (page.size <= ORIGINAL_IN_DATABASE_MAX_BYTES) {
    return storeSmallPage(writer, page, chunks, options);
  }
  const staged = await store.blobs.stage();
  let committed = false;
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.length;
      await staged.write(chunk);
    }
    const mismatch = originalMismatch(page, hash.digest('hex'), size);
    if (mismatch !== undefined) return mismatch;
    await staged.close(true);
    const facts = await readFacts(staged.path, page, options);
    await store.blobs.commit(staged, page.id);
    committed = true;
    writer.insertPage(page, facts, options.now());
    return undefined;
  } catch (error) {
    if (committed && store.webpages.find(page.id) === undefined) {
      await rm(store.blobs.pathOf(page.id), { force: true });
    }
    return failureReason(error);
  } finally {
    await staged.discard();
  }
}

/**
 * A page whose original is small: its bytes read into memory (no more than the zip's entry says),
 * checked, parsed, and recorded with the page in one transaction.
 */
async function storeSmallPage(
  writer: RestoreWriter,
  page: ExportedWebpage,
  chunks: PageOriginal,
  options: PageOptions,
): Promise<string | undefined> {
  try {
    const pieces: Uint8Array[] = [];
    for await (const chunk of chunks) pieces.push(chunk);
    const bytes = Buffer.concat(pieces);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const mismatch = originalMismatch(page, sha256, bytes.length);
    if (mismatch !== undefined) return mismatch;
    writer.insertPage(page, await readFacts(bytes, page, options), options.now(), bytes);
    return undefined;
  } catch (error) {
    return failureReason(error);
  }
}

/** Why an original read from the zip is not the page's, or undefined when it is. */
function originalMismatch(page: ExportedWebpage, sha256: string, size: number): string | undefined {
  if (sha256 !== page.id) return 'its original does not match its id (sha256)';
  if (size !== page.size) return 'its original is not the size its page says';
  return undefined;
}

/** A page's failure as the report says it. */
function failureReason(error: unknown): string {
  if (error instanceof RestoreRefused) return error.message;
  return `it could not be written: ${(error as Error).message}`;
}

/** What a restore keeps from a page's parse: its searchable text, and an MHTML's index of parts. */
interface ParsedFacts {
  text: string;
  partIndex?: string;
}

/** The page's searchable text (and index of parts) from its original (a file's path, or bytes). */
async function readFacts(
  original: string | Uint8Array,
  page: ExportedWebpage,
  options: PageOptions,
): Promise<ParsedFacts> {
  try {
    const { text, partIndex } = await parsePool.parseStaged(original, page.ext, {
      timeoutMs: options.parseTimeoutMs,
    });
    return partIndex === undefined ? { text } : { text, partIndex };
  } catch {
    // Kept without searchable text: the page was in the archive, whatever its parse says now.
    return { text: '' };
  }
}

/**
 * Adds one page (and its highlights, with their ids) to a store, as a restore does; for copying
 * into a data folder. Returns why it failed, or undefined. Throws nothing for a page's own faults.
 */
export async function addPageToStore(
  store: Store,
  page: ExportedWebpage,
  bytes: Uint8Array,
  options: PageOptions,
): Promise<string | undefined> {
  if (store.webpages.find(page.id) !== undefined) return undefined;
  return storePage(store, writerOf(store), page, [bytes], options);
}

const writers = new WeakMap<Store, RestoreWriter>();

function writerOf(store: Store): RestoreWriter {
  let writer = writers.get(store);
  if (writer === undefined) {
    writer = new RestoreWriter(store);
    writers.set(store, writer);
  }
  return writer;
}

type ExportItem =
  { kind: 'header'; views: ExportedView[] } | { kind: 'page'; page: ExportedWebpage };

/** The header and the pages of `folio-export.json`, each checked, read a line at a time. */
async function* exportItems(source: ZipSource, entry: ZipEntry): AsyncGenerator<ExportItem> {
  let state: 'header' | 'pages' | 'closed' = 'header';
  let declared = 0;
  let pages = 0;
  let lastHadComma = true;
  const ids = new Set<string>();
  for await (const line of lines(exportEntryBytes(source, entry))) {
    if (state === 'header') {
      yield { kind: 'header', views: parseHeader(line, (count) => (declared = count)) };
      state = 'pages';
      continue;
    }
    if (state === 'closed') throw formatError('text after its end');
    if (line === ']}') {
      if (pages > 0 && lastHadComma) throw formatError('a comma after its last page');
      state = 'closed';
      continue;
    }
    if (!lastHadComma) throw formatError('a page line without a comma before the next');
    lastHadComma = line.endsWith(',');
    const page = parsePage(lastHadComma ? line.slice(0, -1) : line);
    if (ids.has(page.id)) throw formatError(`the page ${page.id} twice`);
    ids.add(page.id);
    pages++;
    yield { kind: 'page', page };
  }
  if (state !== 'closed') throw formatError('no end (it is cut short)');
  if (pages !== declared) throw formatError(`${pages} pages where its header says ${declared}`);
}

function formatError(what: string): RestoreRefused {
  return new RestoreRefused(`${EXPORT_JSON} is not a Folio export: ${what}`);
}

/** Lines of UTF-8 text (without their `\n`), each at most MAX_LINE_BYTES. */
async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  for await (const chunk of chunks) {
    let from = 0;
    for (let newline = chunk.indexOf(10, from); newline >= 0; newline = chunk.indexOf(10, from)) {
      pending.push(chunk.subarray(from, newline));
      yield decode(decoder, Buffer.concat(pending));
      pending = [];
      pendingLength = 0;
      from = newline + 1;
    }
    if (from < chunk.length) {
      pending.push(chunk.subarray(from));
      pendingLength += chunk.length - from;
      if (pendingLength > MAX_LINE_BYTES) throw formatError('a line longer than it reads');
    }
  }
  if (pendingLength > 0) yield decode(decoder, Buffer.concat(pending));
}

function decode(decoder: TextDecoder, bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw formatError('text that is not UTF-8');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw formatError('a line that is not JSON');
  }
}

const createViewValidator = createRequestValidators(loadSpec()).get('createView');

function parseHeader(line: string, setCount: (count: number) => void): ExportedView[] {
  const header = parseJson(`${line}]}`);
  if (!isObject(header) || header.format !== EXPORT_FORMAT) throw formatError('no format line');
  if (header.version !== EXPORT_VERSION) {
    throw formatError(`version ${String(header.version)}, this server reads ${EXPORT_VERSION}`);
  }
  if (!isCount(header.webpageCount)) throw formatError('no page count');
  setCount(header.webpageCount);
  if (!Array.isArray(header.views) || header.views.length > MAX_ITEMS) {
    throw formatError('no list of views');
  }
  return header.views.map((view: unknown) => parseView(view));
}

function parseView(value: unknown): ExportedView {
  if (!isObject(value) || !isShortText(value.id) || value.id === '' || !isCount(value.createdAt)) {
    throw formatError('a view without its id or time');
  }
  const { id, createdAt, ...fields } = value;
  try {
    createViewValidator?.({ params: {}, query: {}, body: fields });
  } catch (error) {
    if (error instanceof RequestValidationError) throw formatError(`a view: ${error.message}`);
    throw error;
  }
  const filters = fields.filters;
  if (
    !Array.isArray(filters) ||
    !filters.every((filter) => isObject(filter) && isShortText(filter.id))
  ) {
    throw formatError('a view whose filters have no ids');
  }
  return { ...(fields as Omit<ExportedView, 'id' | 'createdAt'>), id, createdAt };
}

function parsePage(line: string): ExportedWebpage {
  const value = parseJson(line);
  if (!isObject(value) || !isWebpageId(value.id)) throw formatError('a page without an id');
  const shown = `the page ${value.id}`;
  const ext = value.ext;
  if (!isWebpageExt(ext)) throw formatError(`${shown} has no known ext`);
  if (value.file !== originalEntryName(value.id, ext)) {
    throw formatError(`${shown} names another file than originals/<id>.<ext>`);
  }
  const texts = ['title', 'excerpt'] as const;
  for (const field of texts) if (!isText(value[field])) throw formatError(`${shown}: ${field}`);
  if (value.link !== null && !isText(value.link)) throw formatError(`${shown}: link`);
  for (const field of ['size', 'firstAddTime', 'createTime', 'lastModified'] as const) {
    if (!isCount(value[field])) throw formatError(`${shown}: ${field}`);
  }
  if (typeof value.liked !== 'boolean' || typeof value.read !== 'boolean') {
    throw formatError(`${shown}: liked or read`);
  }
  const labels = value.labels;
  if (
    !Array.isArray(labels) ||
    labels.length > 10_000 ||
    !labels.every(isShortText) ||
    new Set(labels).size !== labels.length
  ) {
    throw formatError(`${shown}: labels`);
  }
  const highlights = value.highlights;
  if (!Array.isArray(highlights) || highlights.length > MAX_ITEMS) {
    throw formatError(`${shown}: highlights`);
  }
  return {
    id: value.id,
    title: value.title as string,
    excerpt: value.excerpt as string,
    link: value.link as string | null,
    ext,
    size: value.size as number,
    firstAddTime: value.firstAddTime as number,
    createTime: value.createTime as number,
    lastModified: value.lastModified as number,
    liked: value.liked,
    read: value.read,
    labels: labels as string[],
    highlights: highlights.map((highlight: unknown) => parseHighlight(highlight, shown)),
    file: value.file,
  };
}

function parseHighlight(value: unknown, shown: string): ExportedHighlight {
  if (
    !isObject(value) ||
    !isShortText(value.id) ||
    value.id === '' ||
    !isText(value.text) ||
    !isText(value.textBefore) ||
    !isText(value.textAfter) ||
    (value.note !== null && !isText(value.note)) ||
    (value.tenThousandth !== null && typeof value.tenThousandth !== 'number') ||
    !isCount(value.editTime)
  ) {
    throw formatError(`${shown}: a highlight`);
  }
  return value as unknown as ExportedHighlight;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TEXT;
}

function isShortText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 1000;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The inserts of a restore: a page with everything it carries, in one transaction. */
class RestoreWriter {
  private readonly insertPageRow: Statement<Record<string, unknown>>;
  private readonly insertText: Statement<[string, string, string]>;
  private readonly insertHighlight: Statement<Record<string, unknown>>;

  constructor(private readonly store: Store) {
    const db = store.db;
    this.insertPageRow = db.prepare(
      `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size, first_add_time,
         create_time, liked, read, annotate_count, last_modified)
       VALUES (@id, @title, @titleKey, @excerpt, @link, @host, @ext, @size, @firstAddTime,
         @createTime, @liked, @read, @annotateCount, @lastModified)`,
    );
    // As WebpageStore's: the labels and host of the row go to the search index too.
    this.insertText = db.prepare(
      `INSERT INTO webpage_texts (webpage_id, title, text, labels, host)
       SELECT w.id, ?, ?, coalesce((SELECT group_concat(value, char(10)) FROM json_each(w.labels_json)), ''),
         coalesce(w.host, '')
       FROM webpages w WHERE w.id = ?`,
    );
    this.insertHighlight = db.prepare(
      `INSERT INTO highlights (id, webpage_id, text, text_before, text_after, note, ten_thousandth,
         edit_time)
       VALUES (@id, @webpageId, @text, @textBefore, @textAfter, @note, @tenThousandth, @editTime)`,
    );
  }

  /**
   * The page, its labels, text, index of parts and highlights, and `original` (a small one's
   * bytes): at once.
   */
  insertPage(page: ExportedWebpage, facts: ParsedFacts, now: number, original?: Buffer): void {
    this.store.db.transaction(() => {
      this.insertPageRow.run({
        id: page.id,
        title: page.title,
        titleKey: titleKey(page.title),
        excerpt: page.excerpt,
        link: page.link,
        host: hostOf(page.link),
        ext: page.ext,
        size: page.size,
        firstAddTime: page.firstAddTime,
        createTime: page.createTime,
        liked: page.liked ? 1 : 0,
        read: page.read ? 1 : 0,
        annotateCount: page.highlights.length,
        lastModified: Math.max(page.lastModified, 0) || now,
      });
      this.store.labels.replace(page.id, page.labels);
      this.insertText.run(page.title, facts.text, page.id);
      if (facts.partIndex !== undefined) {
        this.store.originals.keepPartIndex(page.id, facts.partIndex);
      }
      for (const highlight of page.highlights) {
        this.insertHighlight.run({ ...highlight, webpageId: page.id });
      }
      if (original !== undefined) this.store.webpages.keepOriginal(page.id, original);
    })();
  }
}
