import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate } from './migrations.ts';

export type { Database };

/**
 * Closes the database after refreshing the planner's statistics of the archive (`main`: not of an
 * attached file, such as the full-text index that its own thread writes). The refresh is skipped
 * when another connection's write stands in its way (its ANALYZE cannot take the write lock after
 * reading): it is for the next start's speed, never worth failing a close.
 */
export function closeDatabase(db: Database): void {
  if (!db.open) return;
  try {
    db.pragma('main.optimize');
  } catch (error) {
    if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
  } finally {
    db.close();
  }
}

/**
 * A connection's settings: WAL, synced at checkpoints (a commit survives a crash of the process),
 * foreign keys, and 5 s of waiting for another connection's write to end. A connection checkpoints
 * the log itself only past 64 MB (SQLite's default: 4 MB), a safety net: the store's checkpoints
 * run on a thread of their own (wal-checkpoints.ts), and the last connection to close checkpoints.
 */
export function configureConnection(db: Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 16384');
}

/** Opens (creating if needed) the archive's database: WAL, foreign keys, migrated schema. */
export function openDatabase(file: string): Database {
  const db = new BetterSqlite3(file);
  try {
    configureConnection(db);
    migrate(db);
    // Keeps the planner's statistics fresh for a long-running process (SQLite's advice).
    db.pragma('optimize = 0x10002');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
