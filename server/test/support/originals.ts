// Where an archive's data folder keeps its original files, read as a client cannot: the blob
// store's files (`blobs/<id[0..2]>/<id>`) and the small ones kept in the database.
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredOriginals {
  /** Ids whose file is in the blob store, sorted. */
  files: string[];
  /** Temp files left in the blob store's folders (`<folder>/<name>`). */
  temp: string[];
  /** Ids whose bytes are in the database, sorted. */
  inDatabase: string[];
}

function inDatabase<T>(dataDir: string, read: (db: BetterSqlite3.Database) => T, none: T): T {
  const file = join(dataDir, 'folio.db');
  if (!existsSync(file)) return none;
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function storedOriginals(dataDir: string): StoredOriginals {
  const root = join(dataDir, 'blobs');
  const files: string[] = [];
  const temp: string[] = [];
  const folders = existsSync(root) ? readdirSync(root) : [];
  for (const folder of folders.filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const name of readdirSync(join(root, folder))) {
      if (name.startsWith('.tmp-')) temp.push(`${folder}/${name}`);
      else files.push(name);
    }
  }
  const ids = inDatabase(
    dataDir,
    (db) =>
      db.prepare('SELECT webpage_id FROM webpage_originals ORDER BY webpage_id').pluck().all(),
    [],
  ) as string[];
  return { files: files.sort(), temp, inDatabase: ids };
}

/** Every original's id, wherever it is kept, sorted. */
export function storedIds(dataDir: string): string[] {
  const { files, inDatabase: rows } = storedOriginals(dataDir);
  return [...files, ...rows].sort();
}

/** The stored bytes of `id`'s original, from the database or the blob store. */
export function readStoredOriginal(dataDir: string, id: string): Buffer | undefined {
  const row = inDatabase(
    dataDir,
    (db) =>
      db.prepare('SELECT bytes FROM webpage_originals WHERE webpage_id = ?').pluck().get(id) as
        Buffer | undefined,
    undefined,
  );
  if (row !== undefined) return row;
  const path = join(dataDir, 'blobs', id.slice(0, 2), id);
  return existsSync(path) ? readFileSync(path) : undefined;
}

/** Damages the archive as a hand could: `id`'s original removed from where it is kept. */
export function removeStoredOriginal(dataDir: string, id: string): void {
  const db = new BetterSqlite3(join(dataDir, 'folio.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const removed = db.prepare('DELETE FROM webpage_originals WHERE webpage_id = ?').run(id);
    if (removed.changes === 1) return;
  } finally {
    db.close();
  }
  rmSync(join(dataDir, 'blobs', id.slice(0, 2), id));
}
