import type { Database, Statement } from 'better-sqlite3';

/** Where the page changes were at one moment (see PageChanges.mark). */
export interface ChangeMark {
  seq: number;
  dataVersion: number;
}

/** Ids of changed pages kept (older ones are forgotten: a mark before them is unknown). */
const KEPT_CHANGES = 4_096;

/**
 * The ids of the pages this connection changed, in order: temporary triggers on `webpages` and
 * `webpage_labels` (every column a list filters or sorts by) call back into this object for each
 * row written. With a mark taken when something was read, `since` says which pages may have
 * changed since, so a kept result can be corrected instead of read again. A commit by another
 * connection (`PRAGMA data_version`) is not seen here: `since` then says nothing is known. A
 * write rolled back is still listed: a page listed that did not change is harmless to recheck.
 */
export class PageChanges {
  private readonly ids: string[] = [];
  /** The sequence number of `ids[0]`. */
  private first = 0;
  private readonly dataVersion: Statement<[], number>;

  constructor(private readonly db: Database) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck() as Statement<[], number>;
    db.function('folio_page_changed', { deterministic: false }, (id: unknown) => {
      if (typeof id === 'string') this.record(id);
      return null;
    });
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_page_insert AFTER INSERT ON main.webpages
        BEGIN SELECT folio_page_changed(new.id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_page_update AFTER UPDATE ON main.webpages
        BEGIN SELECT folio_page_changed(old.id), folio_page_changed(new.id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_page_delete AFTER DELETE ON main.webpages
        BEGIN SELECT folio_page_changed(old.id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_label_insert
        AFTER INSERT ON main.webpage_labels BEGIN SELECT folio_page_changed(new.webpage_id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_label_update
        AFTER UPDATE ON main.webpage_labels
        BEGIN SELECT folio_page_changed(old.webpage_id), folio_page_changed(new.webpage_id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS folio_changes_label_delete
        AFTER DELETE ON main.webpage_labels BEGIN SELECT folio_page_changed(old.webpage_id); END;
    `);
  }

  mark(): ChangeMark {
    return { seq: this.first + this.ids.length, dataVersion: this.dataVersion.get() ?? 0 };
  }

  /**
   * The pages changed since `mark` (each once), or undefined when that is not known: another
   * connection committed, or more than `max` pages changed, or the changes were forgotten.
   */
  since(mark: ChangeMark, max: number): string[] | undefined {
    if (mark.seq < this.first || (this.dataVersion.get() ?? 0) !== mark.dataVersion) {
      return undefined;
    }
    const changed = new Set(this.ids.slice(mark.seq - this.first));
    return changed.size > max ? undefined : [...changed];
  }

  private record(id: string): void {
    this.ids.push(id);
    if (this.ids.length > KEPT_CHANGES * 2) {
      const forgotten = this.ids.length - KEPT_CHANGES;
      this.ids.splice(0, forgotten);
      this.first += forgotten;
    }
  }
}
