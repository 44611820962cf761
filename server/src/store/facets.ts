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
 * The hosts and labels of the live webpages with their counts, most used first. Hosts group on
 * `webpages_by_host (deleted, host, …)`; labels join the live webpages to `webpage_labels` through
 * an index on either side (the planner picks the side by the statistics), never a table scan.
 */
export class FacetStore {
  private readonly selectHosts: Statement<[number], FacetValue>;
  private readonly selectLabels: Statement<[number], FacetValue>;

  /** The statements (exported for EXPLAIN QUERY PLAN checks); one parameter: the limit. */
  static readonly sql = {
    hosts: `SELECT host AS value, COUNT(*) AS count FROM webpages
      WHERE deleted = 0 AND host IS NOT NULL AND host <> ''
      GROUP BY host ORDER BY count DESC, value ASC LIMIT ?`,
    labels: `SELECT l.label AS value, COUNT(*) AS count FROM webpage_labels l
      JOIN webpages w ON w.id = l.webpage_id
      WHERE w.deleted = 0 AND l.label <> ''
      GROUP BY l.label ORDER BY count DESC, value ASC LIMIT ?`,
  } as const;

  constructor(db: Database) {
    this.selectHosts = db.prepare(FacetStore.sql.hosts);
    this.selectLabels = db.prepare(FacetStore.sql.labels);
  }

  all(limit: number = FACET_LIMIT): Facets {
    return { hosts: this.selectHosts.all(limit), labels: this.selectLabels.all(limit) };
  }
}
