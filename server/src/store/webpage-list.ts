import type { Database, Statement } from 'better-sqlite3';
import { IdPrefixCache } from './id-prefix-cache.ts';
import type { LabelStore } from './labels.ts';
import { listColumns, toListRecord, type WebpageListRecord, type WebpageRow } from './records.ts';
import { StatementCache } from './statement-cache.ts';
import { webpageFilterSql, type WebpageFilters } from './webpage-filters.ts';
import type { WriteGeneration } from './write-generation.ts';

export type WebpageSort =
  | 'first_add_time_desc'
  | 'first_add_time_asc'
  | 'title_asc'
  | 'title_desc'
  | 'annotate_count_asc'
  | 'annotate_count_desc';

/** Every order ends with the id, so equal keys always come in the same order. */
export const WEBPAGE_ORDER: Readonly<Record<WebpageSort, string>> = {
  first_add_time_desc: 'w.first_add_time DESC, w.id DESC',
  first_add_time_asc: 'w.first_add_time ASC, w.id ASC',
  title_asc: 'w.title_key ASC, w.id ASC',
  title_desc: 'w.title_key DESC, w.id DESC',
  annotate_count_asc: 'w.annotate_count ASC, w.id ASC',
  annotate_count_desc: 'w.annotate_count DESC, w.id DESC',
};

/** From this offset on, a query's ids are kept (IdPrefixCache): shallow pages are cheap anyway. */
export const KEEP_IDS_FROM_OFFSET = 1_000;
/** How many pages past the asked one are read into the kept prefix. */
const PAGES_AHEAD = 20;

export interface Paging {
  /** 1-based. */
  page: number;
  perPage: number;
}

/**
 * The paged, filtered, sorted list of live webpages (list columns only, never the text). Two
 * steps: the page's ids, found and sorted from indexes alone (the sort indexes carry the filter
 * columns), then the rows of those ids. Sorting ids rather than whole rows keeps a label-filtered
 * page cheap when many pages match. Deep pages are sliced from a prefix of the sorted ids kept
 * until the next write.
 */
export class WebpageList {
  private readonly statements: StatementCache;
  private readonly selectRows: Statement<[string], WebpageRow>;
  private readonly prefixes: IdPrefixCache;

  constructor(
    db: Database,
    private readonly labels: LabelStore,
    generation: WriteGeneration,
  ) {
    this.statements = new StatementCache(db);
    this.prefixes = new IdPrefixCache(generation);
    this.selectRows = db.prepare(
      `SELECT ${listColumns('w')} FROM webpages w WHERE w.id IN (SELECT value FROM json_each(?))`,
    );
  }

  /** The SQL and parameters of the page's ids (exported for EXPLAIN QUERY PLAN checks). */
  static query(filters: WebpageFilters, sort: WebpageSort, paging: Paging) {
    const where = webpageFilterSql(filters);
    const sql = `SELECT w.id FROM webpages w WHERE ${where.sql}
      ORDER BY ${WEBPAGE_ORDER[sort]} LIMIT ? OFFSET ?`;
    return { sql, params: [...where.params, paging.perPage, offsetOf(paging)] };
  }

  list(filters: WebpageFilters, sort: WebpageSort, paging: Paging): WebpageListRecord[] {
    const offset = offsetOf(paging);
    if (offset > Number.MAX_SAFE_INTEGER) return [];
    const ids =
      offset < KEEP_IDS_FROM_OFFSET
        ? this.pageIds(filters, sort, paging)
        : this.keptIds(filters, sort, paging);
    if (ids.length === 0) return [];
    const rows = new Map(this.selectRows.all(JSON.stringify(ids)).map((row) => [row.id, row]));
    const labels = this.labels.ofMany(ids);
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row === undefined ? [] : [toListRecord(row, labels.get(id) ?? [])];
    });
  }

  private pageIds(filters: WebpageFilters, sort: WebpageSort, paging: Paging): string[] {
    const { sql, params } = WebpageList.query(filters, sort, paging);
    return this.statements
      .get(sql)
      .pluck()
      .all(...params) as string[];
  }

  private keptIds(filters: WebpageFilters, sort: WebpageSort, paging: Paging): string[] {
    const where = webpageFilterSql(filters);
    const sql = `SELECT w.id FROM webpages w WHERE ${where.sql}
      ORDER BY ${WEBPAGE_ORDER[sort]} LIMIT ?`;
    const offset = offsetOf(paging);
    return this.prefixes.slice(
      `${sql}\u0000${JSON.stringify(where.params)}`,
      offset,
      offset + paging.perPage,
      paging.perPage * PAGES_AHEAD,
      (count) =>
        this.statements
          .get(sql)
          .pluck()
          .all(...where.params, count) as string[],
    );
  }
}

export function offsetOf(paging: Paging): number {
  return (paging.page - 1) * paging.perPage;
}
