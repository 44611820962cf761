import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { HighlightRecord } from './records.ts';

export interface NewHighlight {
  text: string;
  textBefore: string;
  textAfter: string;
  note?: string;
  tenThousandth?: number;
}

const COLUMNS = `id, webpage_id AS webpageId, text, text_before AS textBefore,
  text_after AS textAfter, note, ten_thousandth AS tenThousandth, edit_time AS editTime`;

/** Highlights; every change keeps `webpages.annotate_count` right in the same transaction. */
export class HighlightStore {
  private readonly selectOne: Statement<[string], HighlightRecord>;
  private readonly selectMany: Statement<[string], HighlightRecord>;
  private readonly insertOne: Statement<Record<string, unknown>>;
  private readonly updateNote: Statement<[string, number, string, string]>;
  private readonly deleteOne: Statement<[string, string]>;
  private readonly countChange: Statement<[number, number, string]>;
  private readonly touch: Statement<[number, string]>;

  constructor(private readonly db: Database) {
    this.selectOne = db.prepare(
      `SELECT ${COLUMNS} FROM highlights WHERE webpage_id = ? ORDER BY seq`,
    );
    this.selectMany = db.prepare(
      `SELECT ${COLUMNS} FROM highlights
       WHERE webpage_id IN (SELECT value FROM json_each(?)) ORDER BY webpage_id, seq`,
    );
    this.insertOne = db.prepare(
      `INSERT INTO highlights (id, webpage_id, text, text_before, text_after, note, ten_thousandth,
         edit_time)
       VALUES (@id, @webpageId, @text, @textBefore, @textAfter, @note, @tenThousandth, @now)`,
    );
    this.updateNote = db.prepare(
      'UPDATE highlights SET note = ?, edit_time = ? WHERE id = ? AND webpage_id = ?',
    );
    this.deleteOne = db.prepare('DELETE FROM highlights WHERE id = ? AND webpage_id = ?');
    this.countChange = db.prepare(
      `UPDATE webpages SET annotate_count = annotate_count + ?, last_modified = ? WHERE id = ?`,
    );
    this.touch = db.prepare('UPDATE webpages SET last_modified = ? WHERE id = ?');
  }

  of(webpageId: string): HighlightRecord[] {
    return this.selectOne.all(webpageId);
  }

  /** Highlights of many webpages in one query; every id gets an entry. */
  ofMany(webpageIds: readonly string[]): Map<string, HighlightRecord[]> {
    const result = new Map<string, HighlightRecord[]>(webpageIds.map((id) => [id, []]));
    if (webpageIds.length === 0) return result;
    for (const row of this.selectMany.all(JSON.stringify(webpageIds))) {
      result.get(row.webpageId)?.push(row);
    }
    return result;
  }

  /** Adds a highlight to a webpage (the caller checked that it is live); returns its id. */
  create(webpageId: string, highlight: NewHighlight, now: number): string {
    const id = randomUUID();
    this.db.transaction(() => {
      this.insertOne.run({
        id,
        webpageId,
        text: highlight.text,
        textBefore: highlight.textBefore,
        textAfter: highlight.textAfter,
        note: highlight.note ?? null,
        tenThousandth: highlight.tenThousandth ?? null,
        now,
      });
      this.countChange.run(1, now, webpageId);
    })();
    return id;
  }

  /** Sets the note; false when the webpage has no such highlight. */
  setNote(webpageId: string, highlightId: string, note: string, now: number): boolean {
    return this.db.transaction(() => {
      if (this.updateNote.run(note, now, highlightId, webpageId).changes === 0) return false;
      this.touch.run(now, webpageId);
      return true;
    })();
  }

  /** Removes a highlight; false when the webpage has no such highlight. */
  remove(webpageId: string, highlightId: string, now: number): boolean {
    return this.db.transaction(() => {
      if (this.deleteOne.run(highlightId, webpageId).changes === 0) return false;
      this.countChange.run(-1, now, webpageId);
      return true;
    })();
  }
}
