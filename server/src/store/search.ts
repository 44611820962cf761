import type { Database, Statement } from 'better-sqlite3';
import type { LabelStore } from './labels.ts';
import { listColumns, toListRecord, type WebpageListRecord, type WebpageRow } from './records.ts';
import { StatementCache } from './statement-cache.ts';
import { webpageFilterSql, type WebpageFilters } from './webpage-filters.ts';
import { offsetOf, type Paging } from './webpage-list.ts';

/** Title weight against the text's in bm25: a match in the title counts ten times more. */
const TITLE_WEIGHT = 10;
/** The trigram index needs at least three characters per term. */
const MIN_INDEXED_TERM = 3;

export interface SearchHit {
  record: WebpageListRecord;
  /** The page's text, to cut a snippet from. */
  text: string;
}

/**
 * What separates the words of a query: white space and control characters. A control character
 * is never part of a term: FTS5 reads a query as a C string, so a NUL inside a quoted term ended
 * the query there ("unterminated string", a 500), and the others match nothing a page shows.
 */
const TERM_SEPARATOR = /[\s\p{Cc}]+/u;

/** The words of a query: split on white space and control characters, deduplicated, in order. */
export function searchTerms(query: string): string[] {
  return [...new Set(query.split(TERM_SEPARATOR).filter((term) => term !== ''))];
}

/**
 * Full-text search over titles and page text: every term must appear (in the title or the text).
 * Terms of three characters or more use the FTS5 trigram index (so CJK text without spaces
 * matches) ranked by bm25; shorter terms fall back to LIKE, ranked by title matches then newest.
 */
export class SearchStore {
  private readonly statements: StatementCache;
  private readonly selectTexts: Statement<[string], { webpageId: string; text: string }>;

  constructor(
    db: Database,
    private readonly labels: LabelStore,
  ) {
    this.statements = new StatementCache(db);
    this.selectTexts = db.prepare(
      `SELECT webpage_id AS webpageId, text FROM webpage_texts
       WHERE webpage_id IN (SELECT value FROM json_each(?))`,
    );
  }

  search(terms: readonly string[], filters: WebpageFilters, paging: Paging): SearchHit[] {
    if (terms.length === 0 || offsetOf(paging) > Number.MAX_SAFE_INTEGER) return [];
    const { sql, params } = SearchStore.query(terms, filters, paging);
    const rows = this.statements.get(sql).all(...params) as WebpageRow[];
    const ids = rows.map((row) => row.id);
    const labels = this.labels.ofMany(ids);
    const texts = new Map<string, string>();
    if (ids.length > 0) {
      for (const row of this.selectTexts.all(JSON.stringify(ids)))
        texts.set(row.webpageId, row.text);
    }
    return rows.map((row) => ({
      record: toListRecord(row, labels.get(row.id) ?? []),
      text: texts.get(row.id) ?? '',
    }));
  }

  static query(terms: readonly string[], filters: WebpageFilters, paging: Paging) {
    const where = webpageFilterSql(filters);
    const page = [paging.perPage, offsetOf(paging)];
    if (terms.every((term) => [...term].length >= MIN_INDEXED_TERM)) {
      const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ');
      const sql = `SELECT ${listColumns('w')} FROM webpage_fts f
        JOIN webpage_texts t ON t.doc = f.rowid
        JOIN webpages w ON w.id = t.webpage_id
        WHERE webpage_fts MATCH ? AND ${where.sql}
        ORDER BY bm25(webpage_fts, ${TITLE_WEIGHT}, 1) ASC, w.first_add_time DESC, w.id DESC
        LIMIT ? OFFSET ?`;
      return { sql, params: [match, ...where.params, ...page] };
    }
    const patterns = terms.map((term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const found = patterns
      .map(() => `(t.title LIKE ? ESCAPE '\\' OR t.text LIKE ? ESCAPE '\\')`)
      .join(' AND ');
    const inTitle = patterns.map(() => `(t.title LIKE ? ESCAPE '\\')`).join(' + ');
    const sql = `SELECT ${listColumns('w')} FROM webpages w
      JOIN webpage_texts t ON t.webpage_id = w.id
      WHERE ${where.sql} AND ${found}
      ORDER BY ${inTitle} DESC, w.first_add_time DESC, w.id DESC
      LIMIT ? OFFSET ?`;
    return {
      sql,
      params: [
        ...where.params,
        ...patterns.flatMap((pattern) => [pattern, pattern]),
        ...patterns,
        ...page,
      ],
    };
  }
}
