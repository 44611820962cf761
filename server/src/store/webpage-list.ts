import type { Database, Statement } from 'better-sqlite3';
import { IdPrefixCache, MAX_PATCHED_PAGES } from './id-prefix-cache.ts';
import { PageChanges, type ChangeMark } from './page-changes.ts';
import type { LabelStore } from './labels.ts';
import { listColumns, toListRecord, type WebpageListRecord, type WebpageRow } from './records.ts';
import { StatementCache } from './statement-cache.ts';
import {
  placeholders,
  webpageFilterSql,
  type LabelCheck,
  type WebpageFilters,
} from './webpage-filters.ts';
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
/** Totals kept (by filters and generation of the data) before they are all dropped. */
const KEPT_COUNTS = 64;
/**
 * A count of a label or host filter is kept as the set of its pages when the filter is estimated
 * to match at most this many (~100 bytes an id): after a write it is corrected for the pages that
 * changed instead of counted again. All kept sets together hold at most MAX_COUNTED_IDS ids.
 */
const MAX_COUNTED_PAGES = 50_000;
const MAX_COUNTED_IDS = 120_000;

interface KeptCount {
  generation: string;
  count: number;
  /** The matching pages, and the page changes when they were read (see MAX_COUNTED_PAGES). */
  members?: { ids: Set<string>; mark: ChangeMark };
}
/** How many pages past the asked one are read into the kept prefix. */
const PAGES_AHEAD = 20;

/** Each sort's key column and direction (the id breaks ties, in the same direction). */
const SORT_KEY: Readonly<Record<WebpageSort, { column: string; descending: boolean }>> = {
  first_add_time_desc: { column: 'first_add_time', descending: true },
  first_add_time_asc: { column: 'first_add_time', descending: false },
  title_asc: { column: 'title_key', descending: false },
  title_desc: { column: 'title_key', descending: true },
  annotate_count_asc: { column: 'annotate_count', descending: false },
  annotate_count_desc: { column: 'annotate_count', descending: true },
};

/** The index that gives each sort's order (and carries every filter column). */
export const SORT_INDEX: Readonly<Record<WebpageSort, string>> = {
  first_add_time_desc: 'webpages_by_added',
  first_add_time_asc: 'webpages_by_added',
  title_asc: 'webpages_by_title',
  title_desc: 'webpages_by_title',
  annotate_count_asc: 'webpages_by_annotations',
  annotate_count_desc: 'webpages_by_annotations',
};

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
  private readonly labelCount: Statement<[string], number>;
  private readonly hostCount: Statement<[string], number>;
  private readonly counts = new Map<string, KeptCount>();
  private countedIds = 0;
  private readonly changes: PageChanges;

  constructor(
    db: Database,
    private readonly labels: LabelStore,
    private readonly generation: WriteGeneration,
  ) {
    this.statements = new StatementCache(db);
    this.changes = new PageChanges(db);
    this.prefixes = new IdPrefixCache(generation, { entries: 16, maxIds: 120_000 }, this.changes);
    this.labelCount = db
      .prepare('SELECT live FROM label_counts WHERE label = ?')
      .pluck() as Statement<[string], number>;
    this.hostCount = db.prepare('SELECT live FROM host_counts WHERE host = ?').pluck() as Statement<
      [string],
      number
    >;
    this.selectRows = db.prepare(
      `SELECT ${listColumns('w')} FROM webpages w WHERE w.id IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * The SQL and parameters of the page's ids (exported for EXPLAIN QUERY PLAN checks). With the
   * labels probed, the pages are read in the sort's order from its index.
   */
  static query(
    filters: WebpageFilters,
    sort: WebpageSort,
    paging: Paging,
    labelCheck: LabelCheck = 'set',
  ) {
    const { sql, params } = WebpageList.prefixQuery(filters, sort, labelCheck);
    return {
      sql: `${sql} OFFSET ?`,
      params: [...params, paging.perPage, offsetOf(paging)],
    };
  }

  /** The first ids of the query; one more parameter: how many. */
  private static prefixQuery(filters: WebpageFilters, sort: WebpageSort, labelCheck: LabelCheck) {
    const where = webpageFilterSql(filters, labelCheck);
    const from =
      labelCheck === 'probe' ? `webpages w INDEXED BY ${SORT_INDEX[sort]}` : 'webpages w';
    const sql = `SELECT w.id FROM ${from} WHERE ${where.sql}
      ORDER BY ${WEBPAGE_ORDER[sort]} LIMIT ?`;
    return { sql, params: where.params };
  }

  /**
   * How to check the labels when the first `needed` ids are wanted (SQLite's planner cannot
   * know that a label is common). Reading pages in order and probing their labels reads about
   * `needed / selectivity` pages; finding the pages of the rarest label reads all of them, then
   * sorts. Both cost about a microsecond a page. The selectivity comes from the counts kept by
   * migration 4 (labels independent of each other and of the hosts).
   */
  labelCheck(filters: WebpageFilters, needed: number): LabelCheck {
    const labels = [...new Set(filters.labels ?? [])];
    // One link has few pages: they are found through its index, never by reading pages in order.
    if (labels.length === 0 || filters.link !== undefined) return 'set';
    const live = this.livePages();
    if (live === 0) return 'set';
    const counts = labels.map((label) => this.labelCount.get(label) ?? 0);
    let selectivity = counts.reduce((product, count) => product * (count / live), 1);
    let smallest = Math.min(...counts);
    const hosts = [...new Set(filters.hosts?.map((host) => host.toLowerCase()) ?? [])];
    if (hosts.length > 0) {
      const onHosts = hosts.reduce((sum, host) => sum + (this.hostCount.get(host) ?? 0), 0);
      selectivity *= onHosts / live;
      smallest = Math.min(smallest, onHosts);
    }
    return selectivity > 0 && needed / selectivity < smallest ? 'probe' : 'set';
  }

  /** Live pages (from the counts kept by triggers). */
  private livePages(): number {
    return this.flagCount({})!;
  }

  /**
   * How many live webpages match `filters` (every page). Counted from the indexes, once per
   * generation of the data and filters (the counts of the last few filters are kept).
   */
  count(filters: WebpageFilters): number {
    const flagged = this.flagCount(filters);
    if (flagged !== undefined) return flagged;
    const where = webpageFilterSql(filters, 'set');
    const sql = `SELECT count(*) FROM webpages w WHERE ${where.sql}`;
    const key = `${sql}\u0000${JSON.stringify(where.params)}`;
    const generation = this.generation.current();
    const kept = this.counts.get(key);
    if (kept?.generation === generation) return kept.count;
    if (kept?.members !== undefined) {
      const mark = this.changes.mark();
      const changed = this.changes.since(kept.members.mark, MAX_PATCHED_PAGES);
      if (changed !== undefined) {
        const matches = this.matching(filters);
        for (const id of changed) {
          if (matches(id)) kept.members.ids.add(id);
          else kept.members.ids.delete(id);
        }
        this.countedIds += kept.members.ids.size - kept.count;
        kept.generation = generation;
        kept.count = kept.members.ids.size;
        kept.members.mark = mark;
        return kept.count;
      }
    }
    if (kept !== undefined) this.forget(key);
    let entry: KeptCount;
    if (this.estimate(filters) <= MAX_COUNTED_PAGES) {
      const mark = this.changes.mark();
      const ids = this.statements
        .get(`SELECT w.id FROM webpages w WHERE ${where.sql}`)
        .pluck()
        .all(...where.params) as string[];
      entry = { generation, count: ids.length, members: { ids: new Set(ids), mark } };
    } else {
      const count = this.statements
        .get(sql)
        .pluck()
        .get(...where.params) as number;
      entry = { generation, count };
    }
    if (this.counts.size >= KEPT_COUNTS) this.forgetAll();
    if (entry.members !== undefined && this.countedIds + entry.count > MAX_COUNTED_IDS) {
      this.forgetAll();
    }
    this.counts.set(key, entry);
    if (entry.members !== undefined) this.countedIds += entry.count;
    return entry.count;
  }

  /**
   * The count of filters on the flags alone (read, liked, annotated, format), summed from the
   * counts kept by triggers (migration 9); `undefined` for any other filter.
   */
  private flagCount(filters: WebpageFilters): number | undefined {
    const hosts = filters.hosts ?? [];
    const labels = filters.labels ?? [];
    if (hosts.length > 0 || labels.length > 0 || filters.link !== undefined) return undefined;
    const conditions = ['1'];
    const params: unknown[] = [];
    for (const flag of ['read', 'liked', 'annotated'] as const) {
      const value = filters[flag];
      if (value === undefined) continue;
      conditions.push(`${flag} = ?`);
      params.push(value ? 1 : 0);
    }
    const exts = [...new Set(filters.exts ?? [])];
    if (exts.length > 0) {
      conditions.push(`ext IN (${placeholders(exts.length)})`);
      params.push(...exts);
    }
    return this.statements
      .get(`SELECT coalesce(sum(live), 0) FROM flag_counts WHERE ${conditions.join(' AND ')}`)
      .pluck()
      .get(...params) as number;
  }

  /** At most how many pages the filters match, from the label and host counts (or Infinity). */
  private estimate(filters: WebpageFilters): number {
    const labels = [...new Set(filters.labels ?? [])];
    const hosts = [...new Set(filters.hosts?.map((host) => host.toLowerCase()) ?? [])];
    let estimate = Infinity;
    for (const label of labels) estimate = Math.min(estimate, this.labelCount.get(label) ?? 0);
    if (hosts.length > 0) {
      const onHosts = hosts.reduce((sum, host) => sum + (this.hostCount.get(host) ?? 0), 0);
      estimate = Math.min(estimate, onHosts);
    }
    return estimate;
  }

  private forget(key: string): void {
    const entry = this.counts.get(key);
    if (entry?.members !== undefined) this.countedIds -= entry.count;
    this.counts.delete(key);
  }

  private forgetAll(): void {
    this.counts.clear();
    this.countedIds = 0;
  }

  /** Whether one page matches the filters now (its labels probed by key). */
  private matching(filters: WebpageFilters): (id: string) => boolean {
    const where = webpageFilterSql(filters, 'probe');
    const statement = this.statements
      .get(`SELECT 1 FROM webpages w WHERE w.id = ? AND ${where.sql}`)
      .pluck();
    return (id) => statement.get(id, ...where.params) !== undefined;
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
    const labelCheck = this.labelCheck(filters, offsetOf(paging) + paging.perPage);
    const { sql, params } = WebpageList.query(filters, sort, paging, labelCheck);
    return this.statements
      .get(sql)
      .pluck()
      .all(...params) as string[];
  }

  private keptIds(filters: WebpageFilters, sort: WebpageSort, paging: Paging): string[] {
    const offset = offsetOf(paging);
    const key = WebpageList.prefixQuery(filters, sort, 'set');
    return this.prefixes.slice(
      `${key.sql}\u0000${JSON.stringify(key.params)}`,
      offset,
      offset + paging.perPage,
      paging.perPage * PAGES_AHEAD,
      (count) => {
        const { sql, params } = WebpageList.prefixQuery(
          filters,
          sort,
          this.labelCheck(filters, count),
        );
        return this.statements
          .get(sql)
          .pluck()
          .all(...params, count) as string[];
      },
      (ids, complete, changed) => this.patchIds(filters, sort, ids, complete, changed),
    );
  }

  /**
   * A query's kept ids corrected for pages that changed since they were read (a write makes a
   * deep page of a popular label cost one lookup per changed page, not the whole query again):
   * each changed page is taken out, and put back where the sort places it if it still matches
   * (found by bisection, the keys compared by SQLite as ORDER BY compares them). A page that
   * sorts after a prefix that is not the whole result is left out: the prefix stays a prefix.
   */
  private patchIds(
    filters: WebpageFilters,
    sort: WebpageSort,
    kept: readonly string[],
    complete: boolean,
    changed: readonly string[],
  ): string[] {
    const matches = this.matching(filters);
    const { column, descending } = SORT_KEY[sort];
    const before = this.statements
      .get(
        `SELECT (a.${column}, a.id) ${descending ? '>' : '<'} (b.${column}, b.id)
         FROM webpages a, webpages b WHERE a.id = ? AND b.id = ?`,
      )
      .pluck();
    const gone = new Set(changed);
    const ids = kept.filter((id) => !gone.has(id));
    for (const id of changed) {
      if (!matches(id)) continue;
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before.get(id, ids[middle]) === 1) high = middle;
        else low = middle + 1;
      }
      if (low === ids.length && !complete) continue;
      ids.splice(low, 0, id);
    }
    return ids;
  }
}

export function offsetOf(paging: Paging): number {
  return (paging.page - 1) * paging.perPage;
}
