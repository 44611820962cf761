// The full-text index in its own file (search.db), written by its own thread after the archive's
// commits: a search still sees every write made before it, and an index file that is missing,
// damaged, another archive's or ahead of its archive (an older copy of folio.db put back) is built
// again from the archive's texts rather than trusted.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureConnection } from '../src/store/database.ts';
import { LabelStore } from '../src/store/labels.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { WebpageStore } from '../src/store/webpages.ts';
import { newWebpage } from './support/new-webpage.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-search-index-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

let now = 1;

function addPage(store: Pick<Store, 'webpages'>, id: string, text: string): void {
  now++;
  store.webpages.insert(
    newWebpage({ id: id.padEnd(64, '0'), title: `Page ${id}`, text, createTime: now }),
    now,
  );
}

async function found(store: Store, q: string): Promise<string[]> {
  const hits = await store.search.search(
    { include: [q], exclude: [] },
    {},
    { page: 1, perPage: 20 },
  );
  return hits.map((hit) => hit.record.title).sort();
}

/** Opens the archive in `dir`, runs `use`, and closes it once its index has caught up. */
async function withStore<T>(dir: string, use: (store: Store) => Promise<T> | T): Promise<T> {
  const store = await openStore(dir);
  try {
    return await use(store);
  } finally {
    await store.search.caughtUp();
    await store.close();
  }
}

/**
 * Copies the logs of the folder's two databases into their files (the index's worker may close its
 * connections a moment after the store): each file is then whole on its own, to be copied.
 */
function settle(dir: string): void {
  for (const file of ['folio.db', 'search.db']) {
    const db = new BetterSqlite3(join(dir, file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}

/** Puts `from` in place of the folder's database, its log cleared (settled before). */
function putBack(dir: string, from: string): void {
  settle(dir);
  copyFileSync(from, join(dir, 'folio.db'));
  for (const file of ['folio.db-wal', 'folio.db-shm']) rmSync(join(dir, file), { force: true });
}

describe('the full-text index', () => {
  it('finds a page written just before the search, and forgets a deleted one', async () => {
    await withStore(root, async (store) => {
      addPage(store, 'a1', 'periwinkle meadow');
      expect(await found(store, 'periwinkle')).toEqual(['Page a1']);
      store.db.prepare('DELETE FROM webpages WHERE id = ?').run('a1'.padEnd(64, '0'));
      expect(await found(store, 'periwinkle')).toEqual([]);
    });
  });

  it('finds a page another connection recorded (as the ingest worker does)', async () => {
    await withStore(root, async (store) => {
      const writer = new BetterSqlite3(join(root, 'folio.db'));
      configureConnection(writer);
      try {
        addPage({ webpages: new WebpageStore(writer, new LabelStore(writer)) }, 'b1', 'tangerine');
      } finally {
        writer.close();
      }
      expect(await found(store, 'tangerine')).toEqual(['Page b1']);
    });
  });

  it('is built again when its file is missing', async () => {
    await withStore(root, (store) => addPage(store, 'c1', 'saffron lantern'));
    for (const file of ['search.db', 'search.db-wal', 'search.db-shm']) {
      rmSync(join(root, file), { force: true });
    }
    await withStore(root, async (store) => {
      expect(await found(store, 'saffron')).toEqual(['Page c1']);
    });
  });

  it("never uses another archive's index", async () => {
    const first = join(root, 'first');
    const second = join(root, 'second');
    await withStore(first, (store) => addPage(store, 'd1', 'cobalt orchard'));
    await withStore(second, (store) => addPage(store, 'd2', 'cobalt quarry'));
    settle(first);
    settle(second);
    copyFileSync(join(first, 'search.db'), join(second, 'search.db'));
    await withStore(second, async (store) => {
      expect(await found(store, 'cobalt')).toEqual(['Page d2']);
      expect(await found(store, 'orchard')).toEqual([]);
    });
  });

  it('is made anew when its file is damaged', async () => {
    await withStore(root, (store) => addPage(store, 'f1', 'walnut ferry'));
    settle(root);
    writeFileSync(join(root, 'search.db'), Buffer.alloc(8192, 'not an index '));
    await withStore(root, async (store) => {
      expect(await found(store, 'walnut')).toEqual(['Page f1']);
    });
  });

  it('is made anew when its thread fails on it, and the waiting search answers', async () => {
    await withStore(root, async (store) => {
      addPage(store, 'g1', 'juniper canal');
      expect(await found(store, 'juniper')).toEqual(['Page g1']);
      // The worker's next step cannot read where it stands.
      store.db.exec('DROP TABLE search.search_state');
      addPage(store, 'g2', 'juniper signal');
      expect(await found(store, 'juniper')).toEqual(['Page g1', 'Page g2']);
    });
  });

  it('is left to its thread when the store closes (no statistics written into it)', async () => {
    // Closing refreshed the planner's statistics of every attached file: an ANALYZE of the index,
    // whose thread may commit meanwhile, failed the close ("database is locked", 2 closes in 12
    // while pages were recorded).
    await withStore(root, async (store) => {
      for (let i = 0; i < 300; i++) addPage(store, `s${i}`, 'sorrel field');
      expect(await found(store, 'sorrel')).toHaveLength(20);
    });
    settle(root);
    const index = new BetterSqlite3(join(root, 'search.db'), { readonly: true });
    const statistics = index
      .prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'sqlite_stat%'")
      .pluck()
      .all();
    index.close();
    expect(statistics).toEqual([]);
  });

  it('is built again when an older copy of the archive is put back', async () => {
    await withStore(root, (store) => addPage(store, 'e1', 'amber kettle'));
    settle(root);
    copyFileSync(join(root, 'folio.db'), join(root, 'folio.db.backup'));
    await withStore(root, (store) => addPage(store, 'e2', 'amber violin'));
    putBack(root, join(root, 'folio.db.backup'));
    await withStore(root, async (store) => {
      // The new page's text takes the row e2's had: an index kept from before would give it
      // e2's words, and miss its own.
      addPage(store, 'e3', 'amber cello');
      expect(await found(store, 'amber')).toEqual(['Page e1', 'Page e3']);
      expect(await found(store, 'violin')).toEqual([]);
      expect(await found(store, 'cello')).toEqual(['Page e3']);
    });
  });
});
