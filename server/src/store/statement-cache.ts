import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements for SQL that is assembled from a fixed set of fragments (the list filters
 * vary in how many hosts, labels… they bind). Least recently used statements are dropped.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly capacity = 200,
  ) {}

  get(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    return statement;
  }
}
