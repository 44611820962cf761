import type { Database, Statement } from 'better-sqlite3';
import type { LabelStore } from './labels.ts';
import {
  RECORD_COLUMNS,
  titleKey,
  toWebpageRecord,
  type WebpageExt,
  type WebpageRecord,
  type WebpageRow,
} from './records.ts';

export interface NewWebpage {
  id: string;
  title: string;
  excerpt: string;
  link: string | null;
  host: string | null;
  ext: WebpageExt;
  size: number;
  createTime: number;
  /** The page's text, for search. */
  text: string;
  /** An MHTML page's index of parts (`writeMhtmlIndex`), kept with it (migration 15). */
  partIndex?: string;
}

/** The fields of a metadata edit; absent means unchanged. `host` goes with `link`. */
export interface WebpagePatch {
  title?: string;
  excerpt?: string;
  liked?: boolean;
  read?: boolean;
  link?: { link: string | null; host: string | null };
  labels?: readonly string[];
}

/** The `webpages` table (and the searchable text that goes with each page). */
export class WebpageStore {
  private readonly selectById: Statement<[string], WebpageRow>;
  private readonly insertPage: Statement<Record<string, unknown>>;
  private readonly insertText: Statement<[string, string, string]>;
  private readonly insertOriginal: Statement<[string, Uint8Array]>;
  private readonly insertPartIndex: Statement<[string, string]>;
  private readonly setDeleted: Statement<[number, number, string, number]>;
  private readonly updatePage: Statement<Record<string, unknown>>;
  private readonly updateTextTitle: Statement<[string, string]>;

  constructor(
    private readonly db: Database,
    private readonly labels: LabelStore,
  ) {
    this.selectById = db.prepare(`SELECT ${RECORD_COLUMNS} FROM webpages w WHERE w.id = ?`);
    this.insertPage = db.prepare(
      `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size, first_add_time,
         create_time, last_modified)
       VALUES (@id, @title, @titleKey, @excerpt, @link, @host, @ext, @size, @now, @createTime, @now)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.insertText = db.prepare(
      // The labels and host (searched too) are the row's: labels added later follow by triggers.
      `INSERT INTO webpage_texts (webpage_id, title, text, labels, host)
       SELECT w.id, ?, ?, coalesce((SELECT group_concat(value, char(10)) FROM json_each(w.labels_json)), ''),
         coalesce(w.host, '')
       FROM webpages w WHERE w.id = ?`,
    );
    this.insertOriginal = db.prepare(
      'INSERT INTO webpage_originals (webpage_id, bytes) VALUES (?, ?)',
    );
    this.insertPartIndex = db.prepare(
      'INSERT INTO webpage_part_indexes (webpage_id, part_index) VALUES (?, ?)',
    );
    this.setDeleted = db.prepare(
      'UPDATE webpages SET deleted = ?, last_modified = ? WHERE id = ? AND deleted = ?',
    );
    this.updatePage = db.prepare(
      `UPDATE webpages SET
         title = CASE WHEN @setTitle THEN @title ELSE title END,
         title_key = CASE WHEN @setTitle THEN @titleKey ELSE title_key END,
         excerpt = CASE WHEN @setExcerpt THEN @excerpt ELSE excerpt END,
         liked = CASE WHEN @setLiked THEN @liked ELSE liked END,
         read = CASE WHEN @setRead THEN @read ELSE read END,
         link = CASE WHEN @setLink THEN @link ELSE link END,
         host = CASE WHEN @setLink THEN @host ELSE host END,
         last_modified = @now
       WHERE id = @id AND deleted = 0`,
    );
    this.updateTextTitle = db.prepare('UPDATE webpage_texts SET title = ? WHERE webpage_id = ?');
  }

  /** The record, deleted or not. */
  find(id: string): WebpageRecord | undefined {
    const row = this.selectById.get(id);
    return row === undefined ? undefined : toWebpageRecord(row);
  }

  /** The record unless it is missing or deleted. */
  findLive(id: string): WebpageRecord | undefined {
    const record = this.find(id);
    return record === undefined || record.deleted ? undefined : record;
  }

  /**
   * Adds a page (the file must already be in the blob store). Returns false when a page with this
   * id exists already (then nothing changes).
   */
  insert(page: NewWebpage, now: number): boolean {
    return this.insertMany([{ page, now }])[0] === true;
  }

  /**
   * Adds pages in one transaction; for each, false when a page with its id exists already (then
   * nothing changes for it). A page's file is either in the blob store already or, when small,
   * given as `original` and kept in the database (originals.ts) with its record. Each page is not
   * a savepoint of its own: one transaction, one commit for the group.
   */
  insertMany(
    pages: readonly { page: NewWebpage; now: number; original?: Uint8Array }[],
  ): boolean[] {
    return this.db.transaction(() =>
      pages.map(({ page, now, original }) => {
        const inserted = this.insertPage.run({
          id: page.id,
          title: page.title,
          titleKey: titleKey(page.title),
          excerpt: page.excerpt,
          link: page.link,
          host: page.host,
          ext: page.ext,
          size: page.size,
          createTime: page.createTime,
          now,
        });
        if (inserted.changes === 0) return false;
        this.insertText.run(page.title, page.text, page.id);
        if (original !== undefined) this.keepOriginal(page.id, original);
        if (page.partIndex !== undefined) this.insertPartIndex.run(page.id, page.partIndex);
        return true;
      }),
    )();
  }

  /**
   * Keeps a new page's original file (a small one, see originals.ts) in the database; in the
   * transaction that inserts the page.
   */
  keepOriginal(id: string, original: Uint8Array): void {
    // Bound as a BLOB only as a Buffer (a view of the same bytes, not a copy).
    this.insertOriginal.run(
      id,
      Buffer.from(original.buffer, original.byteOffset, original.byteLength),
    );
  }

  /** Soft delete; false when missing or already deleted. */
  softDelete(id: string, now: number): boolean {
    return this.setDeleted.run(1, now, id, 0).changes === 1;
  }

  /** Undoes a soft delete (likes, labels and highlights were kept); false when not deleted. */
  restore(id: string, now: number): boolean {
    return this.setDeleted.run(0, now, id, 1).changes === 1;
  }

  /** Applies an edit to a live page in one transaction; false when missing or deleted. */
  update(id: string, patch: WebpagePatch, now: number): boolean {
    return this.db.transaction(() => {
      const changed = this.updatePage.run({
        id,
        now,
        setTitle: flag(patch.title !== undefined),
        title: patch.title ?? null,
        titleKey: patch.title === undefined ? null : titleKey(patch.title),
        setExcerpt: flag(patch.excerpt !== undefined),
        excerpt: patch.excerpt ?? null,
        setLiked: flag(patch.liked !== undefined),
        liked: flag(patch.liked === true),
        setRead: flag(patch.read !== undefined),
        read: flag(patch.read === true),
        setLink: flag(patch.link !== undefined),
        link: patch.link?.link ?? null,
        host: patch.link?.host ?? null,
      });
      if (changed.changes === 0) return false;
      if (patch.title !== undefined) this.updateTextTitle.run(patch.title, id);
      if (patch.labels !== undefined) this.labels.replace(id, patch.labels);
      return true;
    })();
  }
}

function flag(value: boolean): number {
  return value ? 1 : 0;
}
