// The full-text index's writer (search-index.ts): a connection to search.db with the archive's
// database attached as `archive` (its texts and log read; the log's indexed entries deleted). At
// each 'index' it follows the archive's log of changed texts (search_changes) from the last change
// the index holds, in transactions of up to BATCH changes, each committed with the change it
// reached; it reports after each. The archive's one writer (the ingest worker, or the main thread)
// never waits for it: the index is a file of its own, with a write lock of its own. An index to
// build again (REBUILD) is built in one transaction from every text.
import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { configureConnection } from './database.ts';
import {
  latestChange,
  REBUILD,
  type SearchIndexMessage,
  type SearchIndexReport,
  type SearchIndexWorkerData,
} from './search-index-schema.ts';

const port = parentPort;
if (port === null) throw new Error('search-index-worker runs in a worker thread (search-index.ts)');

/** Changes read and indexed per transaction. */
const BATCH = 2048;
/** The log's indexed entries are deleted once this many have accumulated. */
const PRUNE_EVERY = 8192;

/** A change's kind in search_changes. */
const ADDED = 0;

const data = workerData as SearchIndexWorkerData;
const db = new BetterSqlite3(data.search);
configureConnection(db);
// Each commit synced: the archive's log entries it covers are then deleted (pruneLog), so a commit
// lost to a power cut could not be made again from them.
db.pragma('synchronous = FULL');
db.prepare('ATTACH DATABASE ? AS archive').run(data.archive);

const selectIndexed = db.prepare('SELECT indexed FROM search_state').pluck();
const setIndexed = db.prepare('UPDATE search_state SET indexed = ?');
const selectChanges = db.prepare(
  'SELECT seq, doc, op FROM archive.search_changes WHERE seq > ? ORDER BY seq LIMIT ?',
);
const removeText = db.prepare('DELETE FROM webpage_fts WHERE rowid = ?');
const columns = 'rowid, title, labels, host, text';
const addText = db.prepare(
  `INSERT INTO webpage_fts (${columns})
   SELECT doc, title, labels, host, text FROM archive.webpage_texts WHERE doc = ?`,
);
const addEveryText = db.prepare(
  `INSERT INTO webpage_fts (${columns})
   SELECT doc, title, labels, host, text FROM archive.webpage_texts`,
);
const pruneLog = db.prepare('DELETE FROM archive.search_changes WHERE seq <= ?');

let pruned = 0;

/**
 * One transaction: the whole index built again from the archive's texts (when `indexed` is
 * REBUILD), or the next changes applied. Each changed text is removed from the index if it was in
 * it (its first change here is not its addition) and added as the archive holds it now, if it
 * still has it. Returns the change reached and whether any was left.
 */
const step = db.transaction((): { indexed: number; more: boolean } => {
  const indexed = selectIndexed.get() as number;
  if (indexed === REBUILD) {
    // Read in the same snapshot of the archive as the texts.
    const latest = latestChange(db, 'archive');
    db.exec("INSERT INTO webpage_fts (webpage_fts) VALUES ('delete-all')");
    addEveryText.run();
    setIndexed.run(latest);
    return { indexed: latest, more: false };
  }
  const changes = selectChanges.all(indexed, BATCH) as { seq: number; doc: number; op: number }[];
  const last = changes.at(-1);
  if (last === undefined) return { indexed, more: false };
  const wasIndexed = new Map<number, boolean>();
  for (const { doc, op } of changes) {
    if (!wasIndexed.has(doc)) wasIndexed.set(doc, op !== ADDED);
  }
  for (const [doc, indexedBefore] of wasIndexed) {
    if (indexedBefore) removeText.run(doc);
    addText.run(doc);
  }
  setIndexed.run(last.seq);
  return { indexed: last.seq, more: changes.length === BATCH };
});

function indexChanges(): void {
  for (;;) {
    const { indexed, more } = step();
    port?.postMessage({ indexed, idle: !more } satisfies SearchIndexReport);
    if (indexed - pruned >= PRUNE_EVERY) prune(indexed);
    if (!more) return;
  }
}

/** Deletes the log's indexed entries: a short write to the archive, which may wait for its writer. */
function prune(indexed: number): void {
  try {
    pruneLog.run(indexed);
    pruned = indexed;
  } catch {
    // The archive stayed busy: the entries are deleted at a later commit.
  }
}

port.on('message', (message: SearchIndexMessage) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  indexChanges();
});
