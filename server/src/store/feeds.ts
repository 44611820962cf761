import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { StatementCache } from './statement-cache.ts';
import { ViewStore, type ViewQuery } from './views.ts';

/** What a feed item needs of a webpage. */
export interface FeedItemRecord {
  id: string;
  title: string;
  excerpt: string;
  link: string | null;
  firstAddTime: number;
  labels: string[];
}

interface FeedItemRow {
  id: string;
  title: string;
  excerpt: string;
  link: string | null;
  firstAddTime: number;
  labels: string;
}

/** A new feed secret: 32 random bytes, base64url (43 characters, the column's check). */
export function generateFeedSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Compared instead of a secret when a view has none, so that both cases take the same work. */
const NO_SECRET = createHash('sha256').update('no feed secret').digest();

/**
 * The RSS feeds of views (Folio extension, table `view_feeds`): each view has at most one secret;
 * its feed is reachable only with it. A view's secret is deleted with the view (triggers of
 * migration 6), so a deleted view's feed is gone even if the view came back.
 */
export class FeedStore {
  private readonly selectSecret: Statement<[string], { secret: string }>;
  private readonly insertSecret: Statement<[string, number, string]>;
  private readonly replaceSecret: Statement<[string, number, string]>;
  private readonly deleteSecret: Statement<[string]>;
  private readonly statements: StatementCache;
  private readonly itemsOf: Statement<[string], FeedItemRow>;

  constructor(private readonly db: Database) {
    this.selectSecret = db.prepare('SELECT secret FROM view_feeds WHERE view_id = ?');
    // Only for a live view: a feed is never made for a missing or deleted one.
    this.insertSecret = db.prepare(
      `INSERT INTO view_feeds (view_id, secret, created_at)
       SELECT id, ?, ? FROM views WHERE id = ? AND deleted = 0
       ON CONFLICT (view_id) DO NOTHING`,
    );
    this.replaceSecret = db.prepare(
      'UPDATE view_feeds SET secret = ?, created_at = ? WHERE view_id = ?',
    );
    this.deleteSecret = db.prepare('DELETE FROM view_feeds WHERE view_id = ?');
    this.statements = new StatementCache(db, 50);
    // The rows of a JSON array of rowids, in its order (as ViewStore.itemsOf).
    this.itemsOf = db.prepare(
      `SELECT w.id, w.title, w.excerpt, w.link, w.first_add_time AS firstAddTime,
         w.labels_json AS labels
       FROM json_each(?) j CROSS JOIN webpages w ON w.rowid = j.value
       WHERE w.deleted = 0 ORDER BY j.key`,
    ) as Statement<[string], FeedItemRow>;
  }

  /** The view's current secret, undefined when its feed is off. */
  secretOf(viewId: string): string | undefined {
    return this.selectSecret.get(viewId)?.secret;
  }

  /** Turns the feed on (keeps the secret when it is on already); undefined for no live view. */
  enable(viewId: string, now: number): string | undefined {
    return this.db.transaction(() => {
      this.insertSecret.run(generateFeedSecret(), now, viewId);
      return this.secretOf(viewId);
    })();
  }

  /** A new secret (the old one stops working); turns the feed on. Undefined for no live view. */
  rotate(viewId: string, now: number): string | undefined {
    return this.db.transaction(() => {
      const secret = generateFeedSecret();
      if (this.replaceSecret.run(secret, now, viewId).changes === 0) {
        this.insertSecret.run(secret, now, viewId);
      }
      return this.secretOf(viewId);
    })();
  }

  /** Turns the feed off: its secret is forgotten. */
  disable(viewId: string): void {
    this.deleteSecret.run(viewId);
  }

  /**
   * Whether `key` is the view's current secret. Both sides are hashed first so that
   * `timingSafeEqual` compares equal lengths; a view without a secret is compared too.
   */
  accepts(viewId: string, key: string): boolean {
    const secret = this.secretOf(viewId);
    const given = createHash('sha256').update(key, 'utf8').digest();
    const expected =
      secret === undefined ? NO_SECRET : createHash('sha256').update(secret, 'utf8').digest();
    return timingSafeEqual(given, expected) && secret !== undefined;
  }

  /** The first `max` webpages of the view, in its order (its limit applied first). */
  items(view: ViewQuery, now: number, max: number): FeedItemRecord[] {
    const { sql, params } = ViewStore.webpagesQuery(view, now, { offset: 0, count: max });
    const rowids = this.statements
      .get(sql)
      .pluck()
      .all(...params) as number[];
    return this.itemsOf.all(JSON.stringify(rowids)).map((row) => ({
      id: row.id,
      title: row.title,
      excerpt: row.excerpt,
      link: row.link,
      firstAddTime: row.firstAddTime,
      labels: JSON.parse(row.labels) as string[],
    }));
  }
}
