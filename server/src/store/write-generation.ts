import { randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';

/**
 * What the database holds, as a value that changes with every write: rows changed by this
 * connection (`total_changes()`, triggers included), commits by other connections
 * (`PRAGMA data_version`), and this process (the counters start again when it restarts). Equal
 * generations mean equal data; it costs a few microseconds to read.
 */
export class WriteGeneration {
  private readonly totalChanges: Statement<[], number>;
  private readonly process = randomBytes(6).toString('base64url');

  constructor(private readonly db: Database) {
    this.totalChanges = db.prepare('SELECT total_changes()').pluck() as Statement<[], number>;
  }

  current(): string {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    return `${this.process}.${this.totalChanges.get()}.${version}`;
  }
}
