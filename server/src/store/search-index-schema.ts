// The full-text index's own database file (search.db beside folio.db), shared by the main thread
// (search-index.ts, which reads it attached as `search`) and the index's worker
// (search-index-worker.ts, its one writer). Everything in it can be made again from the archive's
// texts (webpage_texts): a file that is missing, from another version or of another archive is
// emptied and rebuilt.
import type { Database, Statement } from 'better-sqlite3';

/** The file's schema version (its `user_version`). */
const SCHEMA_VERSION = 1;

/** `indexed` of an index to build again from every text. */
export const REBUILD = -1;

/** The messages the worker takes: index what changed, or close. */
export type SearchIndexMessage = 'index' | 'close';

/** What the worker reports: the last change of the archive that the index holds, after a commit. */
export interface SearchIndexReport {
  indexed: number;
  /** The worker has indexed every change it saw and waits for the next message. */
  idle: boolean;
}

export interface SearchIndexWorkerData {
  /** The archive's database (folio.db), read through ATTACH as `archive`. */
  archive: string;
  /** The index's database (search.db). */
  search: string;
}

/**
 * The texts' trigram index, contentless (the texts stay in the archive's webpage_texts, whose
 * `doc` is the rowid): title, labels, host, text, searched as the archive kept them before the
 * index had a file of its own (migrations 5, 11: 8 segments merged at a time). `search_state`
 * holds the archive it indexes and the last change of that archive it holds.
 */
const SCHEMA = `
  CREATE VIRTUAL TABLE {schema}.webpage_fts USING fts5 (
    title, labels, host, text, content = '', contentless_delete = 1,
    tokenize = 'trigram remove_diacritics 1'
  );
  INSERT INTO {schema}.webpage_fts (webpage_fts, rank) VALUES ('automerge', 8);
  CREATE TABLE {schema}.search_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    archive TEXT NOT NULL,
    indexed INTEGER NOT NULL
  ) STRICT;
`;

/**
 * Makes the index of schema `schema` (an attached search.db) ready for the archive of `db`'s main
 * schema: created if new or of another version, emptied for a rebuild if it belongs to another
 * archive or holds changes the archive has not made (an older copy of folio.db). Returns the last
 * change it holds (REBUILD when it must be built again: no thread is started for an archive
 * without texts).
 */
export function prepareSearchIndex(db: Database, schema: string): number {
  const archive = db.prepare('SELECT id FROM main.archive_identity').pluck().get() as string;
  return db.transaction(() => {
    // The log's end and the texts, read in one snapshot of the archive.
    const latest = latestChange(db, 'main');
    if (db.pragma(`${schema}.user_version`, { simple: true }) !== SCHEMA_VERSION) {
      db.exec(
        `DROP TABLE IF EXISTS ${schema}.webpage_fts; DROP TABLE IF EXISTS ${schema}.search_state;`,
      );
      db.exec(SCHEMA.replaceAll('{schema}', schema));
      db.pragma(`${schema}.user_version = ${SCHEMA_VERSION}`);
    }
    const state = db.prepare(`SELECT archive, indexed FROM ${schema}.search_state`).get() as
      { archive: string; indexed: number } | undefined;
    if (state !== undefined && state.archive === archive && state.indexed <= latest) {
      return state.indexed;
    }
    db.exec(`INSERT INTO ${schema}.webpage_fts (webpage_fts) VALUES ('delete-all')`);
    // An archive without texts (a new one) has its index already: empty.
    const empty = db.prepare('SELECT 1 FROM main.webpage_texts LIMIT 1').get() === undefined;
    const indexed = empty ? latest : REBUILD;
    db.prepare(
      `INSERT INTO ${schema}.search_state (id, archive, indexed) VALUES (1, ?, ?)
       ON CONFLICT DO UPDATE SET archive = excluded.archive, indexed = excluded.indexed`,
    ).run(archive, indexed);
    return indexed;
  })();
}

/** Reads the last change to the archive's texts (undefined before any): search_changes' sequence. */
export function latestChangeStatement(
  db: Database,
  schema: string,
): Statement<[], number | undefined> {
  return db
    .prepare(`SELECT seq FROM ${schema}.sqlite_sequence WHERE name = 'search_changes'`)
    .pluck() as Statement<[], number | undefined>;
}

/** The last change to the archive's texts (0 before any). */
export function latestChange(db: Database, schema: string): number {
  return latestChangeStatement(db, schema).get() ?? 0;
}
