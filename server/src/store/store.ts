import { join } from 'node:path';
import { BlobStore } from './blobs.ts';
import { closeDatabase, openDatabase, type Database } from './database.ts';
import { FacetStore } from './facets.ts';
import { FeedStore } from './feeds.ts';
import { HighlightStore } from './highlights.ts';
import { IngestThread } from './ingest-thread.ts';
import { LabelStore } from './labels.ts';
import { Originals } from './originals.ts';
import { SearchIndex } from './search-index.ts';
import { SearchStore } from './search.ts';
import { TokenStore } from './tokens.ts';
import { ViewStore } from './views.ts';
import { WalCheckpoints } from './wal-checkpoints.ts';
import { WebpageIngest } from './webpage-ingest.ts';
import { WebpageList } from './webpage-list.ts';
import { WebpageStore } from './webpages.ts';
import { WriteGeneration } from './write-generation.ts';

/**
 * Everything the archive keeps: the database (`<data>/folio.db`, with the small original files),
 * the other original files (`<data>/blobs`), and the full-text index made from the database
 * (`<data>/search.db`, built again when missing).
 */
export interface Store {
  db: Database;
  /** The files written before version 13, and those too large for the database. */
  blobs: BlobStore;
  /** Every page's original file, in the database (small) or the blob store. */
  originals: Originals;
  webpages: WebpageStore;
  /** New pages' files and records, stored in groups (group commit). */
  ingest: WebpageIngest;
  labels: LabelStore;
  highlights: HighlightStore;
  list: WebpageList;
  search: SearchStore;
  views: ViewStore;
  /** Hosts and labels in use (Folio's facets extension). */
  facets: FacetStore;
  /** The RSS feeds' secrets of views (Folio extension). */
  feeds: FeedStore;
  /** API tokens made with the token CLI (hashes only). */
  tokens: TokenStore;
  /**
   * The archive's key for the preview's links to large parts (migration 14); links are signed with
   * a key derived from it and the credentials in force (`partLinkKeys` in `part-links.ts`).
   */
  partLinkKey: Buffer;
  /** Changes with every write: what was read at one generation holds until the next. */
  generation: WriteGeneration;
  /**
   * Closes the database at once; resolves once the threads with connections or files of their own
   * (ingest, checkpoints, the search index, the file writer) have let go of them, so that the
   * folder can be removed or copied.
   */
  close(): Promise<void>;
}

export async function openStore(dataDir: string): Promise<Store> {
  const blobs = new BlobStore(join(dataDir, 'blobs'));
  await blobs.init();
  const file = join(dataDir, 'folio.db');
  const db = openDatabase(file);
  const labels = new LabelStore(db);
  const webpages = new WebpageStore(db, labels);
  // The files of uploads that a crash cut off before their record (a deleted page keeps its file).
  try {
    await blobs.collectOrphans((id) => webpages.find(id) !== undefined);
  } catch (error) {
    closeDatabase(db);
    throw error;
  }
  let index: SearchIndex;
  try {
    index = new SearchIndex(db, { archive: file, search: join(dataDir, 'search.db') });
  } catch (error) {
    closeDatabase(db);
    throw error;
  }
  const highlights = new HighlightStore(db);
  const generation = new WriteGeneration(db);
  const checkpoints = new WalCheckpoints(generation, file);
  const ingest = new WebpageIngest(db, blobs, webpages, new IngestThread({ database: file }));
  return {
    db,
    blobs,
    originals: new Originals(db, blobs),
    webpages,
    ingest,
    labels,
    highlights,
    list: new WebpageList(db, labels, generation),
    search: new SearchStore(db, labels, index),
    views: new ViewStore(db, labels, highlights),
    facets: new FacetStore(db),
    feeds: new FeedStore(db),
    tokens: new TokenStore(db),
    partLinkKey: db.prepare('SELECT key FROM part_link_key').pluck().get() as Buffer,
    generation,
    close: async () => {
      const threads = [ingest.close(), checkpoints.close(), index.close(), blobs.close()];
      closeDatabase(db);
      await Promise.all(threads);
    },
  };
}
