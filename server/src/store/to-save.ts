import type { Database, Statement } from 'better-sqlite3';

/** A link to save later (Folio's to-save extension). */
export interface ToSaveLink {
  id: number;
  url: string;
  title: string;
  labels: string[];
  addTime: number | null;
  createdAt: number;
  /** A live webpage has exactly this link. */
  saved: boolean;
}

export interface NewToSaveLink {
  url: string;
  title: string;
  labels: string[];
  addTime: number | null;
}

/** Links the list keeps at most. */
export const MAX_TO_SAVE = 100_000;

interface Row {
  id: number;
  url: string;
  title: string;
  labels_json: string;
  add_time: number | null;
  created_at: number;
  saved: number;
}

const COLUMNS = `t.id, t.url, t.title, t.labels_json, t.add_time, t.created_at,
  EXISTS (SELECT 1 FROM webpages w WHERE w.link = t.url AND w.deleted = 0) AS saved`;

function toLink(row: Row): ToSaveLink {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    labels: JSON.parse(row.labels_json) as string[],
    addTime: row.add_time,
    createdAt: row.created_at,
    saved: row.saved === 1,
  };
}

export class ToSaveStore {
  private readonly listStatement: Statement<[], Row>;
  private readonly findStatement: Statement<[number], Row>;
  private readonly insertStatement: Statement<[string, string, string, number | null, number]>;
  private readonly countStatement: Statement<[], { n: number }>;
  private readonly deleteStatement: Statement<[number]>;

  constructor(private readonly db: Database) {
    this.listStatement = db.prepare(`SELECT ${COLUMNS} FROM to_save t ORDER BY t.id DESC`);
    this.findStatement = db.prepare(`SELECT ${COLUMNS} FROM to_save t WHERE t.id = ?`);
    this.insertStatement = db.prepare(
      `INSERT INTO to_save (url, title, labels_json, add_time, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (url) DO NOTHING`,
    );
    this.countStatement = db.prepare('SELECT count(*) AS n FROM to_save');
    this.deleteStatement = db.prepare('DELETE FROM to_save WHERE id = ?');
  }

  list(): ToSaveLink[] {
    return this.listStatement.all().map(toLink);
  }

  /** Adds the links in one transaction; 'full' (nothing added) past MAX_TO_SAVE. */
  add(links: readonly NewToSaveLink[], now: number): { added: number; existing: number } | 'full' {
    return this.db.transaction(() => {
      if ((this.countStatement.get()?.n ?? 0) + links.length > MAX_TO_SAVE) return 'full' as const;
      let added = 0;
      for (const link of links) {
        const result = this.insertStatement.run(
          link.url,
          link.title,
          JSON.stringify(link.labels),
          link.addTime,
          now,
        );
        added += result.changes;
      }
      return { added, existing: links.length - added };
    })();
  }

  delete(id: number): ToSaveLink | undefined {
    const row = this.findStatement.get(id);
    if (row === undefined) return undefined;
    this.deleteStatement.run(id);
    return toLink(row);
  }
}
