import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { HighlightStore } from './highlights.ts';
import type { LabelStore } from './labels.ts';
import {
  listColumns,
  toListRecord,
  type HighlightRecord,
  type WebpageListRecord,
  type WebpageRow,
} from './records.ts';
import { StatementCache } from './statement-cache.ts';
import {
  viewFilterSql,
  type ViewFilter,
  type ViewFilterInput,
  type ViewMatch,
} from './view-filters.ts';

export type ViewSort = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface ViewRecord {
  id: string;
  title: string;
  description: string;
  createdAt: number;
  enableLimit: boolean;
  limit: number;
  sort: ViewSort;
  match: ViewMatch;
  filters: ViewFilter[];
}

export interface NewView {
  title: string;
  description: string;
  sort: ViewSort;
  limit: number;
  enableLimit: boolean;
  match: ViewMatch;
  filters: readonly ViewFilterInput[];
}

export type ViewPatch = Partial<NewView>;

export type ViewWebpageRecord = WebpageListRecord & { highlights: HighlightRecord[] };

/** What selects a view's webpages: a stored view, or one being previewed. */
export type ViewQuery = Pick<NewView, 'filters' | 'match' | 'sort' | 'limit' | 'enableLimit'>;

/** Rows `offset` to `offset + count` of a view (its limit applied first). */
export interface ViewSlice {
  offset: number;
  count: number;
}

/** The statement that selects a view's webpages (`ViewStore.webpagesQuery`). */
export interface ViewStatement {
  sql: string;
  params: unknown[];
}

export interface ViewPreview {
  count: number;
  webpages: ViewWebpageRecord[];
}

/** 0 random; the others as the list sorts, each ending with the id. */
const VIEW_ORDER: Readonly<Record<ViewSort, string>> = {
  0: 'random()',
  1: 'w.title_key ASC, w.id ASC',
  2: 'w.title_key DESC, w.id DESC',
  3: 'w.first_add_time ASC, w.id ASC',
  4: 'w.first_add_time DESC, w.id DESC',
  5: 'w.annotate_count ASC, w.id ASC',
  6: 'w.annotate_count DESC, w.id DESC',
};

/**
 * A ViewWebpagesListItem (see toViewListItem) as a JSON text, from the row alone: its labels and
 * highlights are kept on it as JSON by triggers (migration 4). One `format()` (not `json_object`,
 * which checks and copies every value again, nor a chain of `||`, which copies the growing text
 * at each step).
 */
const VIEW_ITEM_FIELDS: readonly [name: string, spec: '%s' | '%d', sql: string][] = [
  ['id', '%s', 'json_quote(w.id)'],
  ['title', '%s', 'json_quote(w.title)'],
  ['firstAddTime', '%d', 'w.first_add_time'],
  ['createTime', '%d', 'w.create_time'],
  ['liked', '%s', "iif(w.liked, 'true', 'false')"],
  ['read', '%s', "iif(w.read, 'true', 'false')"],
  ['link', '%s', 'json_quote(w.link)'],
  ['size', '%d', 'w.size'],
  ['ext', '%s', 'json_quote(w.ext)'],
  ['labels', '%s', 'w.labels_json'],
  ['annotateCount', '%d', 'w.annotate_count'],
  ['lastModified', '%d', 'w.last_modified'],
  ['deleted', '%s', "'0'"],
  ['highlights', '%s', 'w.highlights_json'],
];
const VIEW_ITEM_JSON = `format('{${VIEW_ITEM_FIELDS.map(([name, spec]) => `"${name}":${spec}`).join(',')}}',
  ${VIEW_ITEM_FIELDS.map(([, , sql]) => sql).join(', ')})`;

interface ViewRow {
  id: string;
  title: string;
  description: string;
  createdAt: number;
  enableLimit: number;
  limitCount: number;
  sort: ViewSort;
  matchMode: ViewMatch;
  filters: string;
}

const VIEW_COLUMNS = `id, title, description, created_at AS createdAt, enable_limit AS enableLimit,
  limit_count AS limitCount, sort, match_mode AS matchMode, filters`;

const INSERT_VIEW = `INSERT INTO views (id, title, description, created_at, enable_limit, limit_count,
    sort, match_mode, filters)
  VALUES (@id, @title, @description, @createdAt, @enableLimit, @limit, @sort, @match, @filters)`;

/** Saved views and the webpages they select. */
export class ViewStore {
  private readonly selectLive: Statement<[string], ViewRow>;
  private readonly selectAllLive: Statement<[], ViewRow>;
  private readonly insertView: Statement<Record<string, unknown>>;
  private readonly insertViewOnce: Statement<Record<string, unknown>>;
  private readonly updateView: Statement<Record<string, unknown>>;
  private readonly markDeleted: Statement<[string]>;
  private readonly statements: StatementCache;
  private readonly itemsOf: Statement<[string], Buffer | null>;

  constructor(
    private readonly db: Database,
    private readonly labels: LabelStore,
    private readonly highlights: HighlightStore,
    /** Pages made into JSON at a time by `webpagesJson`. */
    private readonly chunkRows = 4096,
  ) {
    this.selectLive = db.prepare(`SELECT ${VIEW_COLUMNS} FROM views WHERE id = ? AND deleted = 0`);
    this.selectAllLive = db.prepare(
      `SELECT ${VIEW_COLUMNS} FROM views WHERE deleted = 0 ORDER BY created_at DESC, seq DESC`,
    );
    this.insertView = db.prepare(INSERT_VIEW);
    this.insertViewOnce = db.prepare(`${INSERT_VIEW} ON CONFLICT (id) DO NOTHING`);
    this.updateView = db.prepare(
      `UPDATE views SET title = @title, description = @description, enable_limit = @enableLimit,
         limit_count = @limit, sort = @sort, match_mode = @match, filters = @filters
       WHERE id = @id AND deleted = 0`,
    );
    this.markDeleted = db.prepare('UPDATE views SET deleted = 1 WHERE id = ? AND deleted = 0');
    this.statements = new StatementCache(db);
    // The rows of a JSON array of rowids, in its order: json_each yields the array in order and
    // CROSS JOIN keeps it the outer loop; `LIMIT -1` keeps the subquery's rows in that order.
    this.itemsOf = db
      .prepare(
        `SELECT CAST(group_concat(item, ',') AS BLOB) FROM (SELECT ${VIEW_ITEM_JSON} AS item
         FROM json_each(?) j CROSS JOIN webpages w ON w.rowid = j.value LIMIT -1)`,
      )
      .pluck() as Statement<[string], Buffer | null>;
  }

  create(view: NewView, now: number): ViewRecord {
    const record: ViewRecord = {
      id: randomUUID(),
      title: view.title,
      description: view.description,
      createdAt: now,
      enableLimit: view.enableLimit,
      limit: view.limit,
      sort: view.sort,
      match: view.match,
      filters: withIds(view.filters),
    };
    this.insertView.run(toParams(record));
    return record;
  }

  /**
   * Adds a view as it was recorded (its id, time and filter ids: a restore). False when a view
   * with its id exists, live or deleted (it is left as it is).
   */
  restore(view: ViewRecord): boolean {
    return this.insertViewOnce.run(toParams(view)).changes === 1;
  }

  /** Live views, newest first. */
  list(): ViewRecord[] {
    return this.selectAllLive.all().map(toViewRecord);
  }

  find(id: string): ViewRecord | undefined {
    const row = this.selectLive.get(id);
    return row === undefined ? undefined : toViewRecord(row);
  }

  /** Applies the given fields; new filters get new ids. Undefined when missing or deleted. */
  update(id: string, patch: ViewPatch): ViewRecord | undefined {
    return this.db.transaction(() => {
      const current = this.find(id);
      if (current === undefined) return undefined;
      const { filters, ...fields } = patch;
      const next: ViewRecord = {
        ...current,
        ...definedOnly(fields),
        filters: filters === undefined ? current.filters : withIds(filters),
      };
      this.updateView.run(toParams(next));
      return next;
    })();
  }

  /** Soft delete; returns the view as it was, undefined when missing or deleted. */
  softDelete(id: string): ViewRecord | undefined {
    return this.db.transaction(() => {
      const current = this.find(id);
      if (current === undefined) return undefined;
      this.markDeleted.run(id);
      return current;
    })();
  }

  /** The view's webpages: filters compiled to SQL, the view's order, its limit when enabled. */
  webpages(view: ViewQuery, now: number): ViewWebpageRecord[] {
    return this.select(view, view.enableLimit ? view.limit : undefined, now);
  }

  /**
   * The statement that selects a view's webpages (their rowids, in its order): what the answer
   * depends on besides the data (a random order aside), so that it can name the answer.
   */
  static webpagesQuery(view: ViewQuery, now: number, slice?: ViewSlice): ViewStatement {
    const where = viewFilterSql(view.filters, view.match, now);
    const viewLimit = view.enableLimit ? view.limit : Infinity;
    if (slice === undefined) {
      const sql = `SELECT w.rowid FROM webpages w WHERE ${where.sql}
      ORDER BY ${VIEW_ORDER[view.sort]} LIMIT ?`;
      return { sql, params: [...where.params, view.enableLimit ? view.limit : -1] };
    }
    // The slice within the view's limit: `count` rows from `offset`, capped where the view ends.
    const count = Math.max(0, Math.min(slice.count, viewLimit - slice.offset));
    const sql = `SELECT w.rowid FROM webpages w WHERE ${where.sql}
      ORDER BY ${VIEW_ORDER[view.sort]} LIMIT ? OFFSET ?`;
    return { sql, params: [...where.params, count, slice.offset] };
  }

  /**
   * The view's webpages as the API shows them (`ViewWebpagesListItem`): the bytes of their JSON
   * texts joined by commas, in chunks, made by SQLite (the same items as `webpages` +
   * `toViewListItem`, at a fraction of the cost: no row objects, no JSON.stringify of tens of
   * thousands of pages). The view's rows are found and sorted first (rowids only), then made into
   * JSON a chunk at a time, in that order: no text of the whole answer is ever built in one
   * piece (SQLite's growing buffer for 60,000 pages would take twice the answer's size). Both
   * steps run without a pause, so no write comes between them. With `keep`, only the first `keep`
   * rows are made into JSON, and `more` says whether the statement found more than that.
   */
  webpagesJson(
    { sql, params }: ViewStatement,
    keep = Infinity,
  ): { chunks: Buffer[]; more: boolean } {
    const all = this.statements
      .get(sql)
      .pluck()
      .all(...params) as number[];
    const rowids = all.length > keep ? all.slice(0, keep) : all;
    const chunks: Buffer[] = [];
    for (let start = 0; start < rowids.length; start += this.chunkRows) {
      const chunk = this.itemsOf.get(JSON.stringify(rowids.slice(start, start + this.chunkRows)));
      if (chunk !== undefined && chunk !== null) chunks.push(chunk);
    }
    return { chunks, more: all.length > keep };
  }

  /**
   * What a view would show, without storing it: how many webpages (its limit applied when
   * enabled) and the first `size` of them, in its order.
   */
  preview(view: ViewQuery, now: number, size: number): ViewPreview {
    const where = viewFilterSql(view.filters, view.match, now);
    const countSql = `SELECT count(*) AS count FROM webpages w WHERE ${where.sql}`;
    const { count } = this.statements.get(countSql).get(...where.params) as { count: number };
    const shown = view.enableLimit ? Math.min(count, view.limit) : count;
    return { count: shown, webpages: this.select(view, Math.min(size, shown), now) };
  }

  private select(view: ViewQuery, limitCount: number | undefined, now: number) {
    const where = viewFilterSql(view.filters, view.match, now);
    const limit = limitCount === undefined ? '' : ' LIMIT ?';
    const sql = `SELECT ${listColumns('w')} FROM webpages w WHERE ${where.sql}
      ORDER BY ${VIEW_ORDER[view.sort]}${limit}`;
    const params = limitCount === undefined ? where.params : [...where.params, limitCount];
    const rows = this.statements.get(sql).all(...params) as WebpageRow[];
    const ids = rows.map((row) => row.id);
    const labels = this.labels.ofMany(ids);
    const highlights = this.highlights.ofMany(ids);
    return rows.map((row) => ({
      ...toListRecord(row, labels.get(row.id) ?? []),
      highlights: highlights.get(row.id) ?? [],
    }));
  }
}

function withIds(filters: readonly ViewFilterInput[]): ViewFilter[] {
  return filters.map((filter) => ({ ...filter, id: randomUUID() }));
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

function toParams(view: ViewRecord): Record<string, unknown> {
  return {
    id: view.id,
    title: view.title,
    description: view.description,
    createdAt: view.createdAt,
    enableLimit: view.enableLimit ? 1 : 0,
    limit: view.limit,
    sort: view.sort,
    match: view.match,
    filters: JSON.stringify(view.filters),
  };
}

function toViewRecord(row: ViewRow): ViewRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    createdAt: row.createdAt,
    enableLimit: row.enableLimit === 1,
    limit: row.limitCount,
    sort: row.sort,
    match: row.matchMode,
    filters: JSON.parse(row.filters) as ViewFilter[],
  };
}
