import type { Database, Statement } from 'better-sqlite3';
import type { HighlightRecord } from './records.ts';
import { StatementCache } from './statement-cache.ts';
import { webpageFilterSql } from './webpage-filters.ts';

/** The filters of the highlights page; all of them must hold. */
export interface HighlightFilters {
  /** Words the highlight's text or note must all contain (white space separates them). */
  q?: string;
  /** The page's host is one of these. */
  hosts?: readonly string[];
  /** The page has every one of these labels. */
  labels?: readonly string[];
}

export interface HighlightPaging {
  /** 1-based. */
  page: number;
  perPage: number;
}

/** A highlight with the page it belongs to. */
export interface HighlightListRecord {
  highlight: HighlightRecord;
  webpage: {
    id: string;
    title: string;
    link: string | null;
    host: string | null;
    labels: string[];
    firstAddTime: number;
  };
}

interface HighlightListRow extends HighlightRecord {
  title: string;
  link: string | null;
  host: string | null;
  labelsJson: string;
  firstAddTime: number;
}

/**
 * How the page filters are applied: `scan` reads the highlights newest first and checks each
 * one's page (cheap when many pages pass: the first page of answers comes early), `filter`
 * finds the pages first and sorts their highlights (cheap when few pages pass).
 */
export type HighlightPlan = 'scan' | 'filter';

/**
 * Below this many pages (by the facet counts), the page filters go first. At 100k pages with 10%
 * annotated, a common host took 222 ms through the filter and 15 ms by scanning, a rare label
 * 11 ms through the filter and 320 ms by scanning (docs/highlights-page.md).
 */
export const FILTER_FIRST_BELOW_PAGES = 2000;

/** The trigram index needs at least three characters per word. */
const MIN_INDEXED_WORD = 3;
/** Words of a query past this many are ignored (the contract bounds `q` to 500 characters). */
const MAX_WORDS = 32;
/** White space and control characters separate words (FTS5 reads a NUL as the end). */
const WORD_SEPARATOR = /[\s\p{Cc}]+/u;

/** The distinct words of a query, in order. */
export function queryWords(q: string | undefined): string[] {
  const words = (q ?? '').split(WORD_SEPARATOR).filter((word) => word !== '');
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * Every highlight of the live webpages, most recently edited first (then the one made later),
 * read backwards through `highlights_by_edit_time` unless the page filters keep few pages
 * (`plan`). Words of three characters or more are
 * found through the trigram index `highlight_fts` (substrings, without case or accents); shorter
 * ones with LIKE on the highlights the rest of the query kept.
 */
export class HighlightList {
  private readonly statements: StatementCache;
  private readonly hostPages: Statement<[string], number>;
  private readonly labelPages: Statement<[string], number>;

  constructor(db: Database) {
    this.statements = new StatementCache(db);
    this.hostPages = db.prepare('SELECT live FROM host_counts WHERE host = ?').pluck() as Statement<
      [string],
      number
    >;
    this.labelPages = db
      .prepare('SELECT live FROM label_counts WHERE label = ?')
      .pluck() as Statement<[string], number>;
  }

  /** `filter` when the page filters keep few pages (the facet counts say how many at most). */
  plan(filters: HighlightFilters): HighlightPlan {
    let pages = Infinity;
    if (filters.hosts !== undefined && filters.hosts.length > 0) {
      pages = 0;
      for (const host of new Set(filters.hosts.map((h) => h.toLowerCase()))) {
        pages += this.hostPages.get(host) ?? 0;
      }
    }
    for (const label of filters.labels ?? []) {
      pages = Math.min(pages, this.labelPages.get(label) ?? 0);
    }
    return pages < FILTER_FIRST_BELOW_PAGES ? 'filter' : 'scan';
  }

  /** One page, and whether another follows. */
  list(
    filters: HighlightFilters,
    paging: HighlightPaging,
  ): { items: HighlightListRecord[]; hasNext: boolean } {
    const offset = (paging.page - 1) * paging.perPage;
    if (!Number.isSafeInteger(offset)) return { items: [], hasNext: false };
    const { sql, params } = HighlightList.query(
      filters,
      { offset, count: paging.perPage + 1 },
      this.plan(filters),
    );
    const rows = this.statements.get(sql).all(...params) as HighlightListRow[];
    const items = rows.slice(0, paging.perPage).map(toRecord);
    return { items, hasNext: rows.length > paging.perPage };
  }

  /** The statement and its parameters (exported for EXPLAIN QUERY PLAN checks). */
  static query(
    filters: HighlightFilters,
    window: { offset: number; count: number },
    plan: HighlightPlan = 'scan',
  ) {
    const where = webpageFilterSql(
      {
        ...(filters.hosts === undefined ? {} : { hosts: filters.hosts }),
        ...(filters.labels === undefined ? {} : { labels: filters.labels }),
      },
      plan === 'scan' ? 'probe' : 'set',
    );
    const words = queryWords(filters.q);
    const indexed = words.filter((word) => [...word].length >= MIN_INDEXED_WORD);
    const short = words.filter((word) => [...word].length < MIN_INDEXED_WORD);
    const conditions = [where.sql];
    const params: unknown[] = [...where.params];
    if (indexed.length > 0) {
      conditions.push('h.seq IN (SELECT rowid FROM highlight_fts WHERE highlight_fts MATCH ?)');
      params.push(indexed.map(ftsString).join(' AND '));
    }
    for (const word of short) {
      conditions.push(`(h.text LIKE ? ESCAPE '\\' OR h.note LIKE ? ESCAPE '\\')`);
      const pattern = likePattern(word);
      params.push(pattern, pattern);
    }
    const sql = `SELECT h.id, h.webpage_id AS webpageId, h.text, h.text_before AS textBefore,
        h.text_after AS textAfter, h.note, h.ten_thousandth AS tenThousandth,
        h.edit_time AS editTime, w.title, w.link, w.host, w.labels_json AS labelsJson,
        w.first_add_time AS firstAddTime
      FROM highlights h${plan === 'scan' ? ' INDEXED BY highlights_by_edit_time' : ''}
      JOIN webpages w ON w.id = h.webpage_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY h.edit_time DESC, h.seq DESC
      LIMIT ? OFFSET ?`;
    return { sql, params: [...params, window.count, window.offset] };
  }
}

function toRecord(row: HighlightListRow): HighlightListRecord {
  const labels: unknown = JSON.parse(row.labelsJson);
  return {
    highlight: {
      id: row.id,
      webpageId: row.webpageId,
      text: row.text,
      textBefore: row.textBefore,
      textAfter: row.textAfter,
      note: row.note,
      tenThousandth: row.tenThousandth,
      editTime: row.editTime,
    },
    webpage: {
      id: row.webpageId,
      title: row.title,
      link: row.link,
      host: row.host,
      labels: Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string') : [],
      firstAddTime: row.firstAddTime,
    },
  };
}

/** A word as an FTS5 string: with the trigram tokenizer, a substring match. */
function ftsString(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** A LIKE pattern for a word anywhere in a value (`\` escapes the wildcards). */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
