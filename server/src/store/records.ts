export type WebpageExt = 'html' | 'mhtml' | 'webarchive';

/** A webpage as stored (without its labels, highlights and text). */
export interface WebpageRecord {
  id: string;
  title: string;
  excerpt: string;
  link: string | null;
  host: string | null;
  ext: WebpageExt;
  size: number;
  firstAddTime: number;
  createTime: number;
  liked: boolean;
  read: boolean;
  deleted: boolean;
  annotateCount: number;
  lastModified: number;
}

/** A webpage in a list: the list columns (no excerpt) and its labels. */
export type WebpageListRecord = Omit<WebpageRecord, 'excerpt'> & { labels: string[] };

export interface HighlightRecord {
  id: string;
  webpageId: string;
  text: string;
  textBefore: string;
  textAfter: string;
  note: string | null;
  tenThousandth: number | null;
  editTime: number;
}

/** SQLite row of `webpages` selected with LIST_COLUMNS / RECORD_COLUMNS. */
export interface WebpageRow {
  id: string;
  title: string;
  excerpt?: string;
  link: string | null;
  host: string | null;
  ext: WebpageExt;
  size: number;
  firstAddTime: number;
  createTime: number;
  liked: number;
  read: number;
  deleted: number;
  annotateCount: number;
  lastModified: number;
}

const LIST_COLUMN_LIST = [
  'id',
  'title',
  'link',
  'host',
  'ext',
  'size',
  'first_add_time AS firstAddTime',
  'create_time AS createTime',
  'liked',
  'read',
  'deleted',
  'annotate_count AS annotateCount',
  'last_modified AS lastModified',
];

/** The columns a list needs, prefixed with a table alias. */
export function listColumns(alias: string): string {
  return LIST_COLUMN_LIST.map((column) => `${alias}.${column}`).join(', ');
}

export const RECORD_COLUMNS = `${listColumns('w')}, w.excerpt`;

export function toWebpageRecord(row: WebpageRow): WebpageRecord {
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt ?? '',
    link: row.link,
    host: row.host,
    ext: row.ext,
    size: row.size,
    firstAddTime: row.firstAddTime,
    createTime: row.createTime,
    liked: row.liked === 1,
    read: row.read === 1,
    deleted: row.deleted === 1,
    annotateCount: row.annotateCount,
    lastModified: row.lastModified,
  };
}

export function toListRecord(row: WebpageRow, labels: string[]): WebpageListRecord {
  const { excerpt: _excerpt, ...record } = toWebpageRecord(row);
  return { ...record, labels };
}

/**
 * The key titles sort by: case and accents ignored in every script ("Éclair" sorts with "eclair",
 * not after "zebra"); the id breaks ties.
 */
export function titleKey(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .normalize('NFC');
}
