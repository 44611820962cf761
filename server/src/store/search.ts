import type { Database, Statement } from 'better-sqlite3';
import type { LabelStore } from './labels.ts';
import type { SearchIndex } from './search-index.ts';
import { listColumns, toListRecord, type WebpageListRecord, type WebpageRow } from './records.ts';
import { StatementCache } from './statement-cache.ts';
import { webpageFilterSql, type WebpageFilters } from './webpage-filters.ts';
import { offsetOf, type Paging } from './webpage-list.ts';

/**
 * bm25 weights of the index's columns (title, labels, host, text): a match in the title counts ten
 * times one in the text, a label or the host five times.
 */
const COLUMN_WEIGHTS = '10, 5, 5, 1';
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

/** A parsed query: terms (words or quoted phrases) a page must contain, and must not contain. */
export interface SearchQuery {
  include: string[];
  exclude: string[];
}

/**
 * Reads a query: white space separates words; `"two words"` is one term (a phrase, matched as it
 * is written, white space collapsed); `-word` or `-"a phrase"` excludes pages with it. Anything
 * else is text: a quote with no closing quote, a lone `-`, or exclusions with nothing to include
 * (then `-word` is searched as written). Terms are deduplicated, in order.
 */
export function parseQuery(query: string): SearchQuery {
  const include: string[] = [];
  const exclude: string[] = [];
  const chars = [...query];
  let at = 0;
  const isSeparator = (char: string | undefined) => char !== undefined && TERM_SEPARATOR.test(char);
  while (at < chars.length) {
    if (isSeparator(chars[at])) {
      at++;
      continue;
    }
    const negated = chars[at] === '-' && at + 1 < chars.length && !isSeparator(chars[at + 1]);
    if (negated) at++;
    let term: string;
    const close = chars[at] === '"' ? chars.indexOf('"', at + 1) : -1;
    if (close > at) {
      term = chars
        .slice(at + 1, close)
        .join('')
        .split(TERM_SEPARATOR)
        .filter((word) => word !== '')
        .join(' ');
      at = close + 1;
    } else {
      const start = at;
      while (at < chars.length && !isSeparator(chars[at])) at++;
      term = chars.slice(start, at).join('');
    }
    if (term !== '') (negated ? exclude : include).push(term);
  }
  if (include.length === 0)
    return { include: unique(exclude.map((term) => `-${term}`)), exclude: [] };
  return { include: unique(include), exclude: unique(exclude) };
}

function unique(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}

/**
 * Full-text search over titles, labels, hosts and page text: every included term must appear (in
 * any of them), no excluded term may. Terms of three characters or more use the FTS5 trigram
 * index (so CJK text without spaces matches; letters compared without case and accents), ranked
 * by bm25 with the title first; shorter terms are checked with LIKE on the pages the index found,
 * or, when no term is long enough for the index, on every page (ranked by title matches, then
 * newest). The index (search-index.ts) is the attached `search.webpage_fts`, contentless: its
 * rowid is webpage_texts' `doc`.
 */
export class SearchStore {
  private readonly statements: StatementCache;
  private readonly selectTexts: Statement<[string], { webpageId: string; text: string }>;

  constructor(
    db: Database,
    private readonly labels: LabelStore,
    /** The full-text index, written after the archive's commits. */
    private readonly index: SearchIndex,
  ) {
    this.statements = new StatementCache(db);
    this.selectTexts = db.prepare(
      `SELECT webpage_id AS webpageId, text FROM webpage_texts
       WHERE webpage_id IN (SELECT value FROM json_each(?))`,
    );
  }

  /** Resolves once the index holds every write committed before the call. */
  async caughtUp(): Promise<void> {
    await this.index.caughtUp();
  }

  /** The hits, once the index holds every write committed before the call. */
  async search(query: SearchQuery, filters: WebpageFilters, paging: Paging): Promise<SearchHit[]> {
    if (query.include.length === 0 || offsetOf(paging) > Number.MAX_SAFE_INTEGER) return [];
    await this.caughtUp();
    const { sql, params } = SearchStore.query(query, filters, paging);
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

  static query(query: SearchQuery, filters: WebpageFilters, paging: Paging) {
    const where = webpageFilterSql(filters);
    const page = [paging.perPage, offsetOf(paging)];
    const indexed = (term: string) => [...term].length >= MIN_INDEXED_TERM;
    const longIn = query.include.filter(indexed);
    const shortIn = query.include.filter((term) => !indexed(term));
    const longOut = query.exclude.filter(indexed);
    const shortOut = query.exclude.filter((term) => !indexed(term));
    // LIKE on every searchable column of webpage_texts `t`, for the terms the index cannot take.
    const inAny = `(t.title LIKE ? ESCAPE '\\' OR t.labels LIKE ? ESCAPE '\\'
      OR t.host LIKE ? ESCAPE '\\' OR t.text LIKE ? ESCAPE '\\')`;
    const likes = [...shortIn.map(() => inAny), ...shortOut.map(() => `NOT ${inAny}`)];
    const likeParams = [...shortIn, ...shortOut].flatMap((term) => {
      const pattern = likePattern(term);
      return [pattern, pattern, pattern, pattern];
    });
    const likeSql = likes.map((like) => ` AND ${like}`).join('');
    if (longIn.length > 0) {
      const match =
        `(${longIn.map(ftsString).join(' AND ')})` +
        longOut.map((term) => ` NOT ${ftsString(term)}`).join('');
      const sql = `SELECT ${listColumns('w')} FROM webpage_fts f
        JOIN webpage_texts t ON t.doc = f.rowid
        JOIN webpages w ON w.id = t.webpage_id
        WHERE webpage_fts MATCH ? AND ${where.sql}${likeSql}
        ORDER BY bm25(webpage_fts, ${COLUMN_WEIGHTS}) ASC, w.first_add_time DESC, w.id DESC
        LIMIT ? OFFSET ?`;
      return { sql, params: [match, ...where.params, ...likeParams, ...page] };
    }
    // Every included term is short: no index can help, every page is read.
    const notOut =
      longOut.length === 0
        ? ''
        : ` AND t.doc NOT IN (SELECT rowid FROM webpage_fts WHERE webpage_fts MATCH ?)`;
    const outMatch = longOut.length === 0 ? [] : [longOut.map(ftsString).join(' OR ')];
    const titlePatterns = shortIn.map(likePattern);
    const inTitle = titlePatterns.map(() => `(t.title LIKE ? ESCAPE '\\')`).join(' + ');
    const sql = `SELECT ${listColumns('w')} FROM webpages w
      JOIN webpage_texts t ON t.webpage_id = w.id
      WHERE ${where.sql}${likeSql}${notOut}
      ORDER BY ${inTitle} DESC, w.first_add_time DESC, w.id DESC
      LIMIT ? OFFSET ?`;
    return {
      sql,
      params: [...where.params, ...likeParams, ...outMatch, ...titlePatterns, ...page],
    };
  }
}

/** A term as an FTS5 string: with the trigram tokenizer, a substring match. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** A LIKE pattern for a term anywhere in a value (`\` escapes the wildcards). */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
