import type { Database, Statement } from 'better-sqlite3';

/** Labels of webpages, in insertion order. */
export class LabelStore {
  private readonly selectOne: Statement<[string], { label: string }>;
  private readonly selectMany: Statement<[string], { webpageId: string; label: string }>;
  private readonly deleteAll: Statement<[string]>;
  private readonly insertOne: Statement<[string, string, number]>;

  constructor(db: Database) {
    this.selectOne = db.prepare(
      'SELECT label FROM webpage_labels WHERE webpage_id = ? ORDER BY position',
    );
    this.selectMany = db.prepare(
      `SELECT webpage_id AS webpageId, label FROM webpage_labels
       WHERE webpage_id IN (SELECT value FROM json_each(?)) ORDER BY webpage_id, position`,
    );
    this.deleteAll = db.prepare('DELETE FROM webpage_labels WHERE webpage_id = ?');
    this.insertOne = db.prepare(
      'INSERT INTO webpage_labels (webpage_id, label, position) VALUES (?, ?, ?)',
    );
  }

  of(webpageId: string): string[] {
    return this.selectOne.all(webpageId).map((row) => row.label);
  }

  /** Labels of many webpages in one query; every id gets an entry. */
  ofMany(webpageIds: readonly string[]): Map<string, string[]> {
    const result = new Map<string, string[]>(webpageIds.map((id) => [id, []]));
    if (webpageIds.length === 0) return result;
    for (const row of this.selectMany.all(JSON.stringify(webpageIds))) {
      result.get(row.webpageId)?.push(row.label);
    }
    return result;
  }

  /** Replaces the set; call inside the caller's transaction. Labels must be deduplicated. */
  replace(webpageId: string, labels: readonly string[]): void {
    this.deleteAll.run(webpageId);
    labels.forEach((label, position) => this.insertOne.run(webpageId, label, position));
  }
}
