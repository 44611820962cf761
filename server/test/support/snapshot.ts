import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { ok, type ApiTarget } from './api.ts';

/**
 * The rows of every table and the blob folder listing; not the full-text index's bookkeeping (the
 * log of changed texts, which its thread prunes, and the archive's random identity).
 */
export function storedState(dataDir: string): {
  tables: Record<string, string[]>;
  blobs: string[];
} {
  const db = new BetterSqlite3(join(dataDir, 'folio.db'), { readonly: true });
  const tables: Record<string, string[]> = {};
  try {
    const names = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name NOT IN ('search_changes', 'archive_identity') ORDER BY name`,
      )
      .all() as { name: string }[];
    for (const { name } of names) {
      const rows = db.prepare(`SELECT * FROM "${name}"`).all();
      tables[name] = rows.map((row) => JSON.stringify(row)).sort();
    }
  } finally {
    db.close();
  }
  const blobs: string[] = [];
  const root = join(dataDir, 'blobs');
  for (const folder of readdirSync(root).sort()) {
    // Temp files are checked apart: a refused upload may remove its own a moment after answering.
    if (folder === '.staging') continue;
    for (const file of readdirSync(join(root, folder)).sort()) {
      blobs.push(`${folder}/${file}:${statSync(join(root, folder, file)).size}`);
    }
  }
  return { tables, blobs };
}

/** Everything the archive holds, read three ways: the database, the blob folder and the API. */
export async function snapshot(target: ApiTarget & { dataDir: string }): Promise<unknown> {
  const { tables, blobs } = storedState(target.dataDir);
  const list = await ok(target, 'listWebpages', { query: { per_page: 1000 } });
  const pages = await Promise.all(
    list.webpages.map((item) => ok(target, 'getWebpage', { params: { id: item.id } })),
  );
  const views = await ok(target, 'listViews');
  const viewPages = await Promise.all(
    views.map((view) => ok(target, 'listViewWebpages', { params: { view_id: view.id } })),
  );
  return { tables, blobs, list, pages, views, viewPages, facets: await ok(target, 'getFacets') };
}
