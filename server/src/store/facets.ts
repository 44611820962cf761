import type { Database, Statement } from 'better-sqlite3';

export interface FacetValue {
  value: string;
  count: number;
}

export interface Facets {
  hosts: FacetValue[];
  labels: FacetValue[];
}

/** At most this many hosts and labels are returned (the contract's `maxItems`). */
export const FACET_LIMIT = 1000;

/**
 * The hosts and labels of the live webpages with their counts, most used first, read from the
 * counts the triggers of migration 4 keep (`host_counts`, `label_counts`) through their
 * `(live DESC, …)` indexes: no grouping of the archive on each request.
 */
export class FacetStore {
  private readonly selectHosts: Statement<[number], FacetValue>;
  private readonly selectLabels: Statement<[number], FacetValue>;

  /** The statements (exported for EXPLAIN QUERY PLAN checks); one parameter: the limit. */
  static readonly sql = {
    hosts: `SELECT host AS value, live AS count FROM host_counts
      ORDER BY live DESC, host ASC LIMIT ?`,
    labels: `SELECT label AS value, live AS count FROM label_counts
      ORDER BY live DESC, label ASC LIMIT ?`,
  } as const;

  constructor(db: Database) {
    this.selectHosts = db.prepare(FacetStore.sql.hosts);
    this.selectLabels = db.prepare(FacetStore.sql.labels);
  }

  all(limit: number = FACET_LIMIT): Facets {
    return { hosts: this.selectHosts.all(limit), labels: this.selectLabels.all(limit) };
  }
}
