import type { Database } from 'better-sqlite3';

// Used by migration 4 only: once it has shipped, what these return must not change.

/** A page's labels in their order, as a JSON array (`page` is the SQL of its id). */
function labelsJsonOf(page: string): string {
  return `(SELECT json_group_array(label) FROM (SELECT label FROM webpage_labels
    WHERE webpage_id = ${page} ORDER BY position LIMIT -1))`;
}

/**
 * A page's highlights in their order, as the API shows them (a JSON array); `note` and
 * `tenThousandth` are left out when null. `LIMIT -1` keeps SQLite from dropping the ORDER BY of
 * a subquery.
 */
function highlightsJsonOf(page: string): string {
  return `(SELECT json_group_array(json(item)) FROM (SELECT json_patch(
    json_object('highlightId', h.id, 'type', 1,
      'marker', json_object('meta', json_object('textBefore', h.text_before, 'textAfter', h.text_after)),
      'text', h.text, 'editTime', h.edit_time),
    json_object('note', h.note, 'tenThousandth', h.ten_thousandth)) AS item
    FROM highlights h WHERE h.webpage_id = ${page} ORDER BY h.seq LIMIT -1))`;
}

// Used by migration 5 only.

/** A page's labels as the search index holds them: one a line (`json` is the SQL of its labels_json). */
function searchLabelsOf(json: string): string {
  return `coalesce((SELECT group_concat(value, char(10)) FROM json_each(${json})), '')`;
}

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
  /* 2: API tokens made with `npm run token -- create` (only their sha256 is kept) */ `
  CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
  ) STRICT;
  `,
  /* 3: list and view speed: covering indexes, live pages per link and per title */ `
  -- The list's indexes carry every filter column: filtering and skipping (OFFSET) read no rows.
  DROP INDEX webpages_by_added;
  DROP INDEX webpages_by_title;
  DROP INDEX webpages_by_annotations;
  DROP INDEX webpages_by_host;
  DROP INDEX webpages_by_liked;
  DROP INDEX webpages_by_read;
  DROP INDEX webpages_by_ext;
  CREATE INDEX webpages_by_added
    ON webpages (deleted, first_add_time, id, liked, read, annotate_count, ext, host);
  CREATE INDEX webpages_by_title
    ON webpages (deleted, title_key, id, liked, read, annotate_count, ext, host);
  CREATE INDEX webpages_by_annotations
    ON webpages (deleted, annotate_count, id, liked, read, ext, host);
  CREATE INDEX webpages_by_host
    ON webpages (deleted, host, first_add_time, id, liked, read, annotate_count, ext, title_key);
  CREATE INDEX webpages_by_liked
    ON webpages (deleted, liked, first_add_time, id, read, annotate_count, ext, host);
  CREATE INDEX webpages_by_read
    ON webpages (deleted, read, first_add_time, id, liked, annotate_count, ext, host);
  CREATE INDEX webpages_by_ext
    ON webpages (deleted, ext, first_add_time, id, liked, read, annotate_count, host);
  -- Pages reached by id (the label filters) are checked and sorted without reading rows.
  CREATE INDEX webpages_list_by_id ON webpages
    (id, deleted, liked, read, annotate_count, ext, host, first_add_time, title_key);
  CREATE INDEX webpages_by_exact_title ON webpages (title);
  -- A page's labels in their order, without sorting them.
  CREATE INDEX webpage_labels_in_order ON webpage_labels (webpage_id, position, label);

  -- How many live pages have each link and each title, kept by triggers: the duplicate filters
  -- of views read the few duplicated values instead of looking for a twin of every page.
  CREATE TABLE link_counts (link TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) STRICT;
  CREATE INDEX link_counts_duplicated ON link_counts (link) WHERE live > 1;
  CREATE TABLE title_counts (title TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) STRICT;
  CREATE INDEX title_counts_duplicated ON title_counts (title) WHERE live > 1;
  INSERT INTO link_counts (link, live)
    SELECT link, count(*) FROM webpages
    WHERE deleted = 0 AND link IS NOT NULL AND link <> '' GROUP BY link;
  INSERT INTO title_counts (title, live)
    SELECT title, count(*) FROM webpages WHERE deleted = 0 AND title <> '' GROUP BY title;
  CREATE TRIGGER webpages_count_insert AFTER INSERT ON webpages WHEN new.deleted = 0 BEGIN
    INSERT INTO link_counts (link, live) SELECT new.link, 1
      WHERE new.link IS NOT NULL AND new.link <> ''
      ON CONFLICT (link) DO UPDATE SET live = live + 1;
    INSERT INTO title_counts (title, live) SELECT new.title, 1 WHERE new.title <> ''
      ON CONFLICT (title) DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_count_update AFTER UPDATE OF title, link, deleted ON webpages
    WHEN old.title IS NOT new.title OR old.link IS NOT new.link OR old.deleted <> new.deleted
  BEGIN
    UPDATE link_counts SET live = live - 1 WHERE old.deleted = 0 AND link = old.link;
    DELETE FROM link_counts WHERE link = old.link AND live <= 0;
    UPDATE title_counts SET live = live - 1 WHERE old.deleted = 0 AND title = old.title;
    DELETE FROM title_counts WHERE title = old.title AND live <= 0;
    INSERT INTO link_counts (link, live) SELECT new.link, 1
      WHERE new.deleted = 0 AND new.link IS NOT NULL AND new.link <> ''
      ON CONFLICT (link) DO UPDATE SET live = live + 1;
    INSERT INTO title_counts (title, live) SELECT new.title, 1
      WHERE new.deleted = 0 AND new.title <> ''
      ON CONFLICT (title) DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_count_delete AFTER DELETE ON webpages WHEN old.deleted = 0 BEGIN
    UPDATE link_counts SET live = live - 1 WHERE link = old.link;
    DELETE FROM link_counts WHERE link = old.link AND live <= 0;
    UPDATE title_counts SET live = live - 1 WHERE title = old.title;
    DELETE FROM title_counts WHERE title = old.title AND live <= 0;
  END;
  ANALYZE webpages;
  ANALYZE webpage_labels;
  `,
  /* 4: a page's labels and highlights as JSON on its row; live pages per host and per label */ `
  -- A view's items are the page's columns with its labels and highlights: kept here as JSON texts
  -- by triggers, a view of tens of thousands of pages reads rows instead of a subquery per page.
  ALTER TABLE webpages ADD COLUMN labels_json TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE webpages ADD COLUMN highlights_json TEXT NOT NULL DEFAULT '[]';
  UPDATE webpages SET labels_json = ${labelsJsonOf('webpages.id')}
    WHERE id IN (SELECT webpage_id FROM webpage_labels);
  UPDATE webpages SET highlights_json = ${highlightsJsonOf('webpages.id')}
    WHERE id IN (SELECT webpage_id FROM highlights);
  CREATE TRIGGER webpage_labels_json_insert AFTER INSERT ON webpage_labels BEGIN
    UPDATE webpages SET labels_json = ${labelsJsonOf('new.webpage_id')} WHERE id = new.webpage_id;
  END;
  CREATE TRIGGER webpage_labels_json_update AFTER UPDATE ON webpage_labels BEGIN
    UPDATE webpages SET labels_json = ${labelsJsonOf('old.webpage_id')} WHERE id = old.webpage_id;
    UPDATE webpages SET labels_json = ${labelsJsonOf('new.webpage_id')} WHERE id = new.webpage_id;
  END;
  CREATE TRIGGER webpage_labels_json_delete AFTER DELETE ON webpage_labels BEGIN
    UPDATE webpages SET labels_json = ${labelsJsonOf('old.webpage_id')} WHERE id = old.webpage_id;
  END;
  CREATE TRIGGER highlights_json_insert AFTER INSERT ON highlights BEGIN
    UPDATE webpages SET highlights_json = ${highlightsJsonOf('new.webpage_id')}
      WHERE id = new.webpage_id;
  END;
  CREATE TRIGGER highlights_json_update AFTER UPDATE ON highlights BEGIN
    UPDATE webpages SET highlights_json = ${highlightsJsonOf('old.webpage_id')}
      WHERE id = old.webpage_id;
    UPDATE webpages SET highlights_json = ${highlightsJsonOf('new.webpage_id')}
      WHERE id = new.webpage_id;
  END;
  CREATE TRIGGER highlights_json_delete AFTER DELETE ON highlights BEGIN
    UPDATE webpages SET highlights_json = ${highlightsJsonOf('old.webpage_id')}
      WHERE id = old.webpage_id;
  END;

  -- How many live pages have each host and each label, kept by triggers: the facets read them
  -- instead of grouping the whole archive on every request.
  CREATE TABLE host_counts (host TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) STRICT;
  CREATE INDEX host_counts_by_live ON host_counts (live DESC, host);
  CREATE TABLE label_counts (label TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) STRICT;
  CREATE INDEX label_counts_by_live ON label_counts (live DESC, label);
  INSERT INTO host_counts (host, live)
    SELECT host, count(*) FROM webpages
    WHERE deleted = 0 AND host IS NOT NULL AND host <> '' GROUP BY host;
  INSERT INTO label_counts (label, live)
    SELECT l.label, count(*) FROM webpage_labels l JOIN webpages w ON w.id = l.webpage_id
    WHERE w.deleted = 0 AND l.label <> '' GROUP BY l.label;
  CREATE TRIGGER webpages_host_count_insert AFTER INSERT ON webpages
    WHEN new.deleted = 0 AND new.host IS NOT NULL AND new.host <> ''
  BEGIN
    INSERT INTO host_counts (host, live) VALUES (new.host, 1)
      ON CONFLICT (host) DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_host_count_update AFTER UPDATE OF host, deleted ON webpages
    WHEN old.host IS NOT new.host OR old.deleted <> new.deleted
  BEGIN
    UPDATE host_counts SET live = live - 1 WHERE old.deleted = 0 AND host = old.host;
    DELETE FROM host_counts WHERE host = old.host AND live <= 0;
    INSERT INTO host_counts (host, live) SELECT new.host, 1
      WHERE new.deleted = 0 AND new.host IS NOT NULL AND new.host <> ''
      ON CONFLICT (host) DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_host_count_delete AFTER DELETE ON webpages WHEN old.deleted = 0 BEGIN
    UPDATE host_counts SET live = live - 1 WHERE host = old.host;
    DELETE FROM host_counts WHERE host = old.host AND live <= 0;
  END;
  -- A page's labels count while it is live: deleting or restoring it moves all of them.
  CREATE TRIGGER webpages_label_count_update AFTER UPDATE OF deleted ON webpages
    WHEN old.deleted <> new.deleted
  BEGIN
    INSERT INTO label_counts (label, live)
      SELECT label, 1 FROM webpage_labels WHERE webpage_id = new.id AND new.deleted = 0 AND label <> ''
      ON CONFLICT (label) DO UPDATE SET live = live + 1;
    UPDATE label_counts SET live = live - 1
      WHERE new.deleted = 1 AND label IN (SELECT label FROM webpage_labels WHERE webpage_id = new.id);
    DELETE FROM label_counts WHERE live <= 0
      AND label IN (SELECT label FROM webpage_labels WHERE webpage_id = new.id);
  END;
  -- Before the row goes: its labels are deleted after it (ON DELETE CASCADE), when it is no longer
  -- there to say whether it was live.
  CREATE TRIGGER webpages_label_count_delete BEFORE DELETE ON webpages WHEN old.deleted = 0 BEGIN
    UPDATE label_counts SET live = live - 1
      WHERE label IN (SELECT label FROM webpage_labels WHERE webpage_id = old.id);
    DELETE FROM label_counts WHERE live <= 0
      AND label IN (SELECT label FROM webpage_labels WHERE webpage_id = old.id);
  END;
  CREATE TRIGGER webpage_labels_count_insert AFTER INSERT ON webpage_labels
    WHEN new.label <> '' AND (SELECT deleted FROM webpages WHERE id = new.webpage_id) = 0
  BEGIN
    INSERT INTO label_counts (label, live) VALUES (new.label, 1)
      ON CONFLICT (label) DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpage_labels_count_delete AFTER DELETE ON webpage_labels
    WHEN (SELECT deleted FROM webpages WHERE id = old.webpage_id) = 0
  BEGIN
    UPDATE label_counts SET live = live - 1 WHERE label = old.label;
    DELETE FROM label_counts WHERE label = old.label AND live <= 0;
  END;
  CREATE TRIGGER webpage_labels_count_update AFTER UPDATE OF label, webpage_id ON webpage_labels
  BEGIN
    UPDATE label_counts SET live = live - 1 WHERE label = old.label
      AND (SELECT deleted FROM webpages WHERE id = old.webpage_id) = 0;
    DELETE FROM label_counts WHERE label = old.label AND live <= 0;
    INSERT INTO label_counts (label, live) SELECT new.label, 1
      WHERE new.label <> '' AND (SELECT deleted FROM webpages WHERE id = new.webpage_id) = 0
      ON CONFLICT (label) DO UPDATE SET live = live + 1;
  END;
  `,
  /* 5: search by labels and host, without case or accents; the index rebuilt */ `
  -- A page's labels (one a line) and host sit beside its text, kept by triggers, so that the
  -- index (external content) can read them. The old index and its triggers go first: filling
  -- the new columns would otherwise re-index every page once more.
  DROP TRIGGER IF EXISTS webpage_texts_after_insert;
  DROP TRIGGER IF EXISTS webpage_texts_after_delete;
  DROP TRIGGER IF EXISTS webpage_texts_after_update;
  DROP TABLE webpage_fts;
  ALTER TABLE webpage_texts ADD COLUMN labels TEXT NOT NULL DEFAULT '';
  ALTER TABLE webpage_texts ADD COLUMN host TEXT NOT NULL DEFAULT '';
  UPDATE webpage_texts SET
    labels = ${searchLabelsOf('w.labels_json')},
    host = coalesce(w.host, '')
    FROM webpages w
    WHERE w.id = webpage_texts.webpage_id AND (w.labels_json <> '[]' OR coalesce(w.host, '') <> '');
  -- remove_diacritics: "flaner" finds "flâner" and "café" finds "cafe" (the query is folded too).
  CREATE VIRTUAL TABLE webpage_fts USING fts5 (
    title, labels, host, text, content = 'webpage_texts', content_rowid = 'doc',
    tokenize = 'trigram remove_diacritics 1'
  );
  INSERT INTO webpage_fts (webpage_fts) VALUES ('rebuild');
  CREATE TRIGGER webpage_texts_after_insert AFTER INSERT ON webpage_texts BEGIN
    INSERT INTO webpage_fts (rowid, title, labels, host, text)
      VALUES (new.doc, new.title, new.labels, new.host, new.text);
  END;
  CREATE TRIGGER webpage_texts_after_delete AFTER DELETE ON webpage_texts BEGIN
    INSERT INTO webpage_fts (webpage_fts, rowid, title, labels, host, text)
      VALUES ('delete', old.doc, old.title, old.labels, old.host, old.text);
  END;
  CREATE TRIGGER webpage_texts_after_update AFTER UPDATE ON webpage_texts BEGIN
    INSERT INTO webpage_fts (webpage_fts, rowid, title, labels, host, text)
      VALUES ('delete', old.doc, old.title, old.labels, old.host, old.text);
    INSERT INTO webpage_fts (rowid, title, labels, host, text)
      VALUES (new.doc, new.title, new.labels, new.host, new.text);
  END;
  CREATE TRIGGER webpages_search_labels AFTER UPDATE OF labels_json ON webpages
    WHEN old.labels_json IS NOT new.labels_json
  BEGIN
    UPDATE webpage_texts SET labels = ${searchLabelsOf('new.labels_json')}
      WHERE webpage_id = new.id;
  END;
  CREATE TRIGGER webpages_search_host AFTER UPDATE OF host ON webpages
    WHEN old.host IS NOT new.host
  BEGIN
    UPDATE webpage_texts SET host = coalesce(new.host, '') WHERE webpage_id = new.id;
  END;
  `,
  /* 6: RSS feeds of views: a view's feed secret (Folio extension); it dies with the view */ `
  CREATE TABLE view_feeds (
    view_id TEXT PRIMARY KEY NOT NULL,
    secret TEXT NOT NULL CHECK (length(secret) = 43),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER views_feed_deleted AFTER UPDATE OF deleted ON views WHEN new.deleted <> 0
  BEGIN
    DELETE FROM view_feeds WHERE view_id = new.id;
  END;
  CREATE TRIGGER views_feed_removed AFTER DELETE ON views
  BEGIN
    DELETE FROM view_feeds WHERE view_id = old.id;
  END;
  `,
  /* 7: the highlights page (Folio's listHighlights): newest first, searched without case or accents */ `
  -- Newest first with a stable tiebreak: read backwards through this index, no sort.
  CREATE INDEX highlights_by_edit_time ON highlights (edit_time, seq);
  -- The text and note of each highlight, indexed by trigrams (substrings, without case or
  -- accents), kept by triggers whatever writes the highlights.
  CREATE VIRTUAL TABLE highlight_fts USING fts5 (
    text, note, content = 'highlights', content_rowid = 'seq',
    tokenize = 'trigram remove_diacritics 1'
  );
  INSERT INTO highlight_fts (highlight_fts) VALUES ('rebuild');
  CREATE TRIGGER highlights_fts_insert AFTER INSERT ON highlights BEGIN
    INSERT INTO highlight_fts (rowid, text, note) VALUES (new.seq, new.text, new.note);
  END;
  CREATE TRIGGER highlights_fts_delete AFTER DELETE ON highlights BEGIN
    INSERT INTO highlight_fts (highlight_fts, rowid, text, note)
      VALUES ('delete', old.seq, old.text, old.note);
  END;
  CREATE TRIGGER highlights_fts_update AFTER UPDATE OF seq, text, note ON highlights BEGIN
    INSERT INTO highlight_fts (highlight_fts, rowid, text, note)
      VALUES ('delete', old.seq, old.text, old.note);
    INSERT INTO highlight_fts (rowid, text, note) VALUES (new.seq, new.text, new.note);
  END;
  `,
  /* 8: Folio's to-save extension: links from a bookmarks file, which Folio cannot fetch */ `
  CREATE TABLE to_save (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    labels_json TEXT NOT NULL DEFAULT '[]',
    add_time INTEGER,
    created_at INTEGER NOT NULL
  ) STRICT;
  `,
  /*
   * 9: live pages counted by the flags the list filters on (read, liked, annotated, format), kept
   * by triggers: a list filtered by these alone is counted from at most 24 rows, also right after
   * a write, instead of from its 100,000 index entries.
   */ `
  CREATE TABLE flag_counts (
    read INTEGER NOT NULL,
    liked INTEGER NOT NULL,
    annotated INTEGER NOT NULL,
    ext TEXT NOT NULL,
    live INTEGER NOT NULL,
    PRIMARY KEY (read, liked, annotated, ext)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO flag_counts (read, liked, annotated, ext, live)
    SELECT read, liked, annotate_count > 0, ext, count(*) FROM webpages WHERE deleted = 0
    GROUP BY read, liked, annotate_count > 0, ext;
  CREATE TRIGGER webpages_flag_count_insert AFTER INSERT ON webpages WHEN new.deleted = 0
  BEGIN
    INSERT INTO flag_counts (read, liked, annotated, ext, live)
      VALUES (new.read, new.liked, new.annotate_count > 0, new.ext, 1)
      ON CONFLICT DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_flag_count_update AFTER UPDATE OF deleted, read, liked, annotate_count, ext
    ON webpages
    WHEN old.deleted <> new.deleted OR old.read <> new.read OR old.liked <> new.liked
      OR (old.annotate_count > 0) <> (new.annotate_count > 0) OR old.ext <> new.ext
  BEGIN
    UPDATE flag_counts SET live = live - 1 WHERE old.deleted = 0 AND read = old.read
      AND liked = old.liked AND annotated = (old.annotate_count > 0) AND ext = old.ext;
    INSERT INTO flag_counts (read, liked, annotated, ext, live)
      SELECT new.read, new.liked, new.annotate_count > 0, new.ext, 1 WHERE new.deleted = 0
      ON CONFLICT DO UPDATE SET live = live + 1;
  END;
  CREATE TRIGGER webpages_flag_count_delete AFTER DELETE ON webpages WHEN old.deleted = 0
  BEGIN
    UPDATE flag_counts SET live = live - 1 WHERE read = old.read AND liked = old.liked
      AND annotated = (old.annotate_count > 0) AND ext = old.ext;
  END;
  `,
  /*
   * 10: the pages changed, by every connection, in order (page-changes.ts): triggers on the columns
   * of webpages and on webpage_labels log each changed page's id; the last 7,168 to 8,192 entries
   * are kept. A list result kept in memory is corrected for the pages changed since it was read,
   * whoever changed them (the server's ingest worker has a connection of its own).
   */ `
  CREATE TABLE page_change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    webpage_id TEXT NOT NULL
  ) STRICT;
  CREATE TRIGGER page_change_log_page_insert AFTER INSERT ON webpages BEGIN
    INSERT INTO page_change_log (webpage_id) VALUES (new.id);
  END;
  CREATE TRIGGER page_change_log_page_update AFTER UPDATE ON webpages BEGIN
    INSERT INTO page_change_log (webpage_id) SELECT old.id WHERE old.id <> new.id;
    INSERT INTO page_change_log (webpage_id) VALUES (new.id);
  END;
  CREATE TRIGGER page_change_log_page_delete AFTER DELETE ON webpages BEGIN
    INSERT INTO page_change_log (webpage_id) VALUES (old.id);
  END;
  CREATE TRIGGER page_change_log_label_insert AFTER INSERT ON webpage_labels BEGIN
    INSERT INTO page_change_log (webpage_id) VALUES (new.webpage_id);
  END;
  CREATE TRIGGER page_change_log_label_update AFTER UPDATE ON webpage_labels BEGIN
    INSERT INTO page_change_log (webpage_id) SELECT old.webpage_id
      WHERE old.webpage_id <> new.webpage_id;
    INSERT INTO page_change_log (webpage_id) VALUES (new.webpage_id);
  END;
  CREATE TRIGGER page_change_log_label_delete AFTER DELETE ON webpage_labels BEGIN
    INSERT INTO page_change_log (webpage_id) VALUES (old.webpage_id);
  END;
  CREATE TRIGGER page_change_log_prune AFTER INSERT ON page_change_log WHEN new.seq % 1024 = 0
  BEGIN
    DELETE FROM page_change_log WHERE seq <= new.seq - 8192;
  END;
  `,
  /*
   * 11: the full-text index merges its segments 8 at a time (FTS5's default: 4). Each commit adds
   * a segment and the merges rewrite them: with 8 a page's terms are rewritten about a third less
   * often over the life of the archive. Recording a page took 1.21 ms, now 0.87 (100,000 pages,
   * groups of 8), most of it inside the write transaction that every upload waits for; a search
   * reads at most 7 segments a level instead of 3 (4.4 → 4.6 ms for a term on 8,000 pages).
   */ `
  INSERT INTO webpage_fts (webpage_fts, rank) VALUES ('automerge', 8);
  `,
  /*
   * 12: the full-text index moves to a database file of its own (search.db, search-index.ts),
   * written by a thread of its own after the pages' commits: the triggers now only log which
   * texts changed, in order (search_changes), and the index follows that log. Writing the index
   * in the upload's transaction was ~0.4–0.7 ms of the ~1 ms the one writer of the archive spent
   * per page, while every upload waited for it. archive_identity names this archive, so that a
   * search.db beside another archive's database is never taken for its index.
   */ `
  DROP TRIGGER webpage_texts_after_insert;
  DROP TRIGGER webpage_texts_after_delete;
  DROP TRIGGER webpage_texts_after_update;
  DROP TABLE webpage_fts;
  CREATE TABLE archive_identity (id TEXT NOT NULL) STRICT;
  INSERT INTO archive_identity (id) VALUES (lower(hex(randomblob(16))));
  -- op: 0 a text added, 1 changed, 2 removed.
  CREATE TABLE search_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    doc INTEGER NOT NULL,
    op INTEGER NOT NULL CHECK (op IN (0, 1, 2))
  ) STRICT;
  INSERT INTO sqlite_sequence (name, seq) VALUES ('search_changes', 0);
  CREATE TRIGGER webpage_texts_search_insert AFTER INSERT ON webpage_texts BEGIN
    INSERT INTO search_changes (doc, op) VALUES (new.doc, 0);
  END;
  CREATE TRIGGER webpage_texts_search_delete AFTER DELETE ON webpage_texts BEGIN
    INSERT INTO search_changes (doc, op) VALUES (old.doc, 2);
  END;
  CREATE TRIGGER webpage_texts_search_update AFTER UPDATE ON webpage_texts BEGIN
    INSERT INTO search_changes (doc, op) SELECT old.doc, 2 WHERE old.doc <> new.doc;
    INSERT INTO search_changes (doc, op)
      VALUES (new.doc, CASE WHEN old.doc = new.doc THEN 1 ELSE 0 END);
  END;
  `,
  /*
   * 13: small originals (up to ORIGINAL_IN_DATABASE_MAX_BYTES, originals.ts) are kept in the
   * database, written in the transaction of their page's record. As files, each cost a create,
   * write, sync, rename and its folder's sync before the record could be committed (so that a
   * record never names a file a power cut lost): ~1.1 ms of the ~2.9 ms of server CPU per small
   * upload. Here the commit that makes the record durable makes its bytes durable too. Larger
   * files, and every file stored before this version, stay in the blob store.
   */ `
  CREATE TABLE webpage_originals (
    webpage_id TEXT PRIMARY KEY NOT NULL REFERENCES webpages (id) ON DELETE CASCADE,
    bytes BLOB NOT NULL
  ) STRICT;
  `,
  /*
   * 14: the key that signs the preview's links to an archive's large parts (part-links.ts): 32
   * random bytes made once per archive (SQLite's randomness comes from the operating system's),
   * kept with the database so that links stay valid across restarts until they expire.
   */ `
  CREATE TABLE part_link_key (key BLOB NOT NULL CHECK (length(key) = 32)) STRICT;
  INSERT INTO part_link_key (key) VALUES (randomblob(32));
  `,
  /*
   * 15: an MHTML page's index of parts (shared/formats/mhtml-index.ts), written with its record
   * at upload: where each part's body is in its file, so that the preview's linked answer reads
   * only the small parts it sends instead of the whole file (binary-mhtml.ts). A page stored
   * before has its index written at its first preview.
   */ `
  CREATE TABLE webpage_part_indexes (
    webpage_id TEXT PRIMARY KEY NOT NULL REFERENCES webpages (id) ON DELETE CASCADE,
    part_index TEXT NOT NULL
  ) STRICT;
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
