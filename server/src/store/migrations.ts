import type { Database } from 'better-sqlite3';

/**
 * The schema, one entry per version (`PRAGMA user_version` is the number applied). Append new
 * migrations; never edit one that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  /* 1: webpages, labels, highlights, views, full-text index */ `
  CREATE TABLE webpages (
    id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    title_key TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    link TEXT,
    host TEXT,
    ext TEXT NOT NULL CHECK (ext IN ('html', 'mhtml', 'webarchive')),
    size INTEGER NOT NULL CHECK (size >= 0),
    first_add_time INTEGER NOT NULL,
    create_time INTEGER NOT NULL,
    liked INTEGER NOT NULL DEFAULT 0 CHECK (liked IN (0, 1)),
    read INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1)),
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    annotate_count INTEGER NOT NULL DEFAULT 0 CHECK (annotate_count >= 0),
    last_modified INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX webpages_by_added ON webpages (deleted, first_add_time, id);
  CREATE INDEX webpages_by_title ON webpages (deleted, title_key, id);
  CREATE INDEX webpages_by_annotations ON webpages (deleted, annotate_count, id);
  CREATE INDEX webpages_by_host ON webpages (deleted, host, first_add_time, id);
  CREATE INDEX webpages_by_liked ON webpages (deleted, liked, first_add_time, id);
  CREATE INDEX webpages_by_read ON webpages (deleted, read, first_add_time, id);
  CREATE INDEX webpages_by_ext ON webpages (deleted, ext, first_add_time, id);
  CREATE INDEX webpages_by_link ON webpages (link) WHERE link IS NOT NULL;

  CREATE TABLE webpage_labels (
    webpage_id TEXT NOT NULL REFERENCES webpages (id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (webpage_id, label)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX webpage_labels_by_label ON webpage_labels (label, webpage_id);

  CREATE TABLE highlights (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    webpage_id TEXT NOT NULL REFERENCES webpages (id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    text_before TEXT NOT NULL,
    text_after TEXT NOT NULL,
    note TEXT,
    ten_thousandth REAL,
    edit_time INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX highlights_by_webpage ON highlights (webpage_id, seq);

  CREATE TABLE views (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    enable_limit INTEGER NOT NULL CHECK (enable_limit IN (0, 1)),
    limit_count INTEGER NOT NULL CHECK (limit_count >= 1),
    sort INTEGER NOT NULL CHECK (sort BETWEEN 0 AND 6),
    match_mode TEXT NOT NULL CHECK (match_mode IN ('and', 'or')),
    filters TEXT NOT NULL CHECK (json_valid(filters)),
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
  ) STRICT;
  CREATE INDEX views_by_created ON views (deleted, created_at, seq);

  -- The page text lives apart from the list columns; webpage_fts indexes it (external content).
  CREATE TABLE webpage_texts (
    doc INTEGER PRIMARY KEY,
    webpage_id TEXT NOT NULL UNIQUE REFERENCES webpages (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    text TEXT NOT NULL
  ) STRICT;
  CREATE VIRTUAL TABLE webpage_fts USING fts5 (
    title, text, content = 'webpage_texts', content_rowid = 'doc', tokenize = 'trigram'
  );
  CREATE TRIGGER webpage_texts_after_insert AFTER INSERT ON webpage_texts BEGIN
    INSERT INTO webpage_fts (rowid, title, text) VALUES (new.doc, new.title, new.text);
  END;
  CREATE TRIGGER webpage_texts_after_delete AFTER DELETE ON webpage_texts BEGIN
    INSERT INTO webpage_fts (webpage_fts, rowid, title, text)
      VALUES ('delete', old.doc, old.title, old.text);
  END;
  CREATE TRIGGER webpage_texts_after_update AFTER UPDATE ON webpage_texts BEGIN
    INSERT INTO webpage_fts (webpage_fts, rowid, title, text)
      VALUES ('delete', old.doc, old.title, old.text);
    INSERT INTO webpage_fts (rowid, title, text) VALUES (new.doc, new.title, new.text);
  END;
  `,
];

export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}

/** Applies the migrations the database has not seen yet, each in its own transaction. */
export function migrate(db: Database, migrations: readonly string[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new SchemaVersionError(
      `the database is at schema version ${current}, newer than this server (${migrations.length})`,
    );
  }
  for (let version = current; version < migrations.length; version++) {
    const sql = migrations[version] ?? '';
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return migrations.length;
}
