// A Folio export as one streamed `.zip` (see docs/export-restore.md): `folio-export.json` (every
// field, written a page at a time), `bookmarks.html` (Netscape format), then each original file
// as `originals/<id>.<ext>`, stored (not recompressed) and read as a stream from where it is kept.
// The zip is produced as the reader asks for it (an async generator behind a Readable), so a slow
// client holds the export back instead of the server buffering it.
import { Readable } from 'node:stream';
import type { Statement } from 'better-sqlite3';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { badRequest, notFound, payloadTooLarge } from '../http/errors.ts';
import { RECORD_COLUMNS, toWebpageRecord, type WebpageRow } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { ViewStore, type ViewRecord } from '../store/views.ts';
import { BOOKMARKS_HTML, EXPORT_JSON, isWebpageId, originalEntryName } from './entry-names.ts';
import {
  CLOSING_LINE,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  headerLine,
  type ExportedWebpage,
  type ExportSelection,
} from './export-format.ts';
import { withZip64End } from './zip64.ts';

/** Pages read from the database at a time. */
const BATCH = 256;
/** Text is handed to the compressor in pieces of about this many bytes. */
const TEXT_PIECE = 64 * 1024;
/**
 * Largest sum of original sizes in one export: the zip's offsets are 32-bit (fflate writes no
 * Zip64 offsets), so the whole archive must stay under 4 GiB; the rest is room for the JSON,
 * the bookmarks and the headers.
 */
export const MAX_EXPORT_ORIGINAL_BYTES = 3.5 * 1024 * 1024 * 1024;
/** Most ids in one selection. */
export const MAX_SELECTED_IDS = 100_000;

export interface PreparedExport {
  selection: ExportSelection;
  /** The pages, as rowids, in export order. */
  rowids: number[];
  views: ViewRecord[];
  /** Sum of the original files' sizes. */
  bytes: number;
  /** Pages left out because their original file is missing from the blob store. */
  missingOriginals: string[];
  /** Each page's file size, as the blob store has it (what `size` says in the export). */
  fileSizes: ReadonlyMap<string, number>;
  exportedAt: number;
}

/**
 * Decides what an export holds (before any byte is sent, so that a bad selection is a clear
 * 4xx): every live page and every view; a view's pages and that view; or the given pages.
 */
export async function prepareExport(
  store: Store,
  selection: ExportSelection,
  now: number,
): Promise<PreparedExport> {
  const db = store.db;
  let rowids: number[];
  let views: ViewRecord[];
  switch (selection.kind) {
    case 'all':
      rowids = db
        .prepare('SELECT rowid FROM webpages WHERE deleted = 0 ORDER BY first_add_time, id')
        .pluck()
        .all() as number[];
      views = store.views.list().reverse();
      break;
    case 'view': {
      const view = store.views.find(selection.viewId);
      if (view === undefined) throw notFound(`view ${selection.viewId} not found`);
      const { sql, params } = ViewStore.webpagesQuery(view, now);
      rowids = db
        .prepare(sql)
        .pluck()
        .all(...params) as number[];
      views = [view];
      break;
    }
    case 'ids': {
      if (selection.ids.length > MAX_SELECTED_IDS) {
        throw badRequest(`at most ${MAX_SELECTED_IDS} ids in one export`);
      }
      const unique = [...new Set(selection.ids)];
      const bad = unique.find((id) => !isWebpageId(id));
      if (bad !== undefined) throw notFound('webpage not found');
      const found = db
        .prepare(
          `SELECT w.rowid FROM json_each(?) j CROSS JOIN webpages w ON w.id = j.value
           WHERE w.deleted = 0 LIMIT -1`,
        )
        .pluck()
        .all(JSON.stringify(unique)) as number[];
      if (found.length !== unique.length) throw notFound('webpage not found');
      rowids = found;
      views = [];
      break;
    }
  }
  // The files' own sizes (what the zip will hold), from where each is kept. A page whose file is
  // missing (a damaged store) is left out and named in the header, so the zip stays whole.
  const ids = db
    .prepare(`SELECT w.id FROM json_each(?) j CROSS JOIN webpages w ON w.rowid = j.value LIMIT -1`)
    .pluck()
    .all(JSON.stringify(rowids)) as string[];
  let bytes = 0;
  const kept: number[] = [];
  const missingOriginals: string[] = [];
  const fileSizes = new Map<string, number>();
  for (let start = 0; start < ids.length; start += 64) {
    const sizes = await Promise.all(
      ids.slice(start, start + 64).map(async (id) => (await store.originals.find(id))?.size),
    );
    sizes.forEach((size, offset) => {
      if (size === undefined) missingOriginals.push(ids[start + offset]!);
      else {
        fileSizes.set(ids[start + offset]!, size);
        bytes += size;
        kept.push(rowids[start + offset]!);
      }
    });
  }
  if (bytes > MAX_EXPORT_ORIGINAL_BYTES) {
    throw payloadTooLarge(
      `the originals of this export take ${gib(bytes)} GiB; one export holds at most ` +
        `${gib(MAX_EXPORT_ORIGINAL_BYTES)} GiB: export views or selections instead`,
    );
  }
  return { selection, rowids: kept, views, bytes, exportedAt: now, missingOriginals, fileSizes };
}

/** The file name of an export made at `at`: `folio-export-2026-11-26.zip`. */
export function exportFileName(at: number): string {
  return `folio-export-${new Date(at).toISOString().slice(0, 10)}.zip`;
}

/** The export as a stream of zip bytes, produced as it is read. */
export function exportStream(store: Store, prepared: PreparedExport): Readable {
  return Readable.from(zipChunks(store, prepared), { objectMode: false, highWaterMark: 1 });
}

type Chunks = AsyncGenerator<Uint8Array, void, undefined>;

async function* zipChunks(store: Store, prepared: PreparedExport): Chunks {
  const pages = new PageReader(store, prepared.fileSizes);
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  let entries = 0;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failure = error;
      return;
    }
    out.push(final && entries > 0xffff ? withZip64End(chunk, entries) : chunk);
  });
  function* drain(): Generator<Uint8Array> {
    if (failure !== null) throw failure;
    while (out.length > 0) yield out.shift()!;
  }

  const mtime = prepared.exportedAt;
  const text = (name: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    entry.mtime = mtime;
    zip.add(entry);
    entries++;
    return entry;
  };

  // folio-export.json
  const json = text(EXPORT_JSON);
  const jsonPieces = new TextPieces((piece, final) => json.push(piece, final));
  jsonPieces.write(
    headerLine({
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: prepared.exportedAt,
      selection: prepared.selection,
      webpageCount: prepared.rowids.length,
      views: prepared.views,
      ...(prepared.missingOriginals.length === 0
        ? {}
        : { missingOriginals: prepared.missingOriginals }),
    }),
  );
  let written = 0;
  for (const batch of pages.batches(prepared.rowids)) {
    for (const page of batch) {
      written++;
      jsonPieces.write(`${JSON.stringify(page)}${written < prepared.rowids.length ? ',' : ''}\n`);
      yield* drain();
    }
    // Let other requests run between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  jsonPieces.end(CLOSING_LINE);
  yield* drain();

  // bookmarks.html
  const bookmarks = text(BOOKMARKS_HTML);
  const bookmarkPieces = new TextPieces((piece, final) => bookmarks.push(piece, final));
  bookmarkPieces.write(BOOKMARKS_START);
  for (const batch of pages.batches(prepared.rowids)) {
    for (const page of batch) {
      if (page.link !== null) bookmarkPieces.write(bookmarkLine(page));
    }
    yield* drain();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  bookmarkPieces.end(BOOKMARKS_END);
  yield* drain();

  // originals/<id>.<ext>
  for (const batch of pages.batches(prepared.rowids)) {
    for (const page of batch) {
      const entry = new ZipPassThrough(page.file);
      entry.mtime = mtime;
      zip.add(entry);
      entries++;
      const original = await store.originals.find(page.id);
      if (original === undefined) throw new Error(`the file of webpage ${page.id} went missing`);
      for await (const chunk of original.stream() as AsyncIterable<Buffer>) {
        entry.push(chunk);
        yield* drain();
      }
      entry.push(new Uint8Array(0), true);
      yield* drain();
    }
  }
  zip.end();
  yield* drain();
}

/** Pages by rowid, in the given order, with their labels and highlights. */
class PageReader {
  private readonly rows: Statement<[string], WebpageRow & { labelsJson: string }>;

  constructor(
    private readonly store: Store,
    private readonly fileSizes: ReadonlyMap<string, number>,
  ) {
    // Deleted or not: a page deleted while the export runs is still exported whole (its file is
    // kept), so that the three parts of the zip agree.
    this.rows = store.db.prepare(
      `SELECT ${RECORD_COLUMNS}, w.labels_json AS labelsJson
       FROM json_each(?) j CROSS JOIN webpages w ON w.rowid = j.value LIMIT -1`,
    );
  }

  *batches(rowids: readonly number[]): Generator<ExportedWebpage[]> {
    for (let start = 0; start < rowids.length; start += BATCH) {
      const rows = this.rows.all(JSON.stringify(rowids.slice(start, start + BATCH)));
      const highlights = this.store.highlights.ofMany(rows.map((row) => row.id));
      yield rows.map((row) => {
        const record = toWebpageRecord(row);
        return {
          id: record.id,
          title: record.title,
          excerpt: record.excerpt,
          link: record.link,
          ext: record.ext,
          size: this.fileSizes.get(record.id) ?? record.size,
          firstAddTime: record.firstAddTime,
          createTime: record.createTime,
          lastModified: record.lastModified,
          liked: record.liked,
          read: record.read,
          labels: JSON.parse(row.labelsJson) as string[],
          highlights: (highlights.get(record.id) ?? []).map((highlight) => ({
            id: highlight.id,
            text: highlight.text,
            textBefore: highlight.textBefore,
            textAfter: highlight.textAfter,
            note: highlight.note,
            tenThousandth: highlight.tenThousandth,
            editTime: highlight.editTime,
          })),
          file: originalEntryName(record.id, record.ext),
        };
      });
    }
  }
}

/** Text encoded and handed on in pieces of about TEXT_PIECE bytes. */
class TextPieces {
  private readonly encoder = new TextEncoder();
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly push: (piece: Uint8Array, final: boolean) => void) {}

  write(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= TEXT_PIECE) this.flush(false);
  }

  end(text: string): void {
    this.pending.push(text);
    this.flush(true);
  }

  private flush(final: boolean): void {
    const piece = this.encoder.encode(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
    this.push(piece, final);
  }
}

const BOOKMARKS_START = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3>Folio</H3>
    <DL><p>
`;
const BOOKMARKS_END = `    </DL><p>
</DL><p>
`;

/** One bookmark: its labels as TAGS (as Pocket, Linkwarden and Firefox read them). */
export function bookmarkLine(
  page: Pick<ExportedWebpage, 'link' | 'title' | 'firstAddTime' | 'labels'>,
): string {
  const addDate = Math.floor(page.firstAddTime / 1000);
  const tags = page.labels.length === 0 ? '' : ` TAGS="${escapeHtml(page.labels.join(','))}"`;
  const title = page.title === '' ? (page.link ?? '') : page.title;
  return `        <DT><A HREF="${escapeHtml(page.link ?? '')}" ADD_DATE="${addDate}"${tags}>${escapeHtml(title)}</A>\n`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

function gib(bytes: number): string {
  return (bytes / 1024 ** 3).toFixed(2);
}
