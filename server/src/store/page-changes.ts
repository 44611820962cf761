import type { Database, Statement } from 'better-sqlite3';

/** Where the page changes were at one moment (see PageChanges.mark). */
export interface ChangeMark {
  /** The last entry of the change log then (0: none). */
  seq: number;
}

/**
 * The pages changed since a moment, from the change log that triggers keep in the database
 * (`page_change_log`, migration 10: every column a list filters or sorts by, labels included) for
 * every connection that writes, this server's threads and any other. With a mark taken before
 * something was read, `since` says which pages may have changed since, so a kept result can be
 * corrected instead of read again. The log keeps its last 7,168 entries at least: a mark older
 * than that gets "unknown".
 */
export class PageChanges {
  private readonly last: Statement<[], number>;
  private readonly first: Statement<[], number>;
  private readonly after: Statement<[number, number], string>;

  constructor(db: Database) {
    this.last = db
      .prepare('SELECT seq FROM page_change_log ORDER BY seq DESC LIMIT 1')
      .pluck() as Statement<[], number>;
    this.first = db
      .prepare('SELECT seq FROM page_change_log ORDER BY seq LIMIT 1')
      .pluck() as Statement<[], number>;
    this.after = db
      .prepare('SELECT DISTINCT webpage_id FROM page_change_log WHERE seq > ? LIMIT ?')
      .pluck() as Statement<[number, number], string>;
  }

  /** Read before what it marks: a change that lands in between is listed, and harmless. */
  mark(): ChangeMark {
    return { seq: this.last.get() ?? 0 };
  }

  /**
   * The pages changed since `mark` (each once), or undefined when that is not known: more than
   * `max` pages changed, or the log no longer goes back that far.
   */
  since(mark: ChangeMark, max: number): string[] | undefined {
    const first = this.first.get();
    if (first !== undefined && mark.seq < first - 1) return undefined;
    const changed = this.after.all(mark.seq, max + 1);
    return changed.length > max ? undefined : changed;
  }
}
