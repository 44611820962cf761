import type { BlobStore, StagedBlob, StagedBytes } from './blobs.ts';
import type { Database } from './database.ts';
import { GroupCommit, type Settled } from './group-commit.ts';
import type { IngestThread } from './ingest-thread.ts';
import { ORIGINAL_IN_DATABASE_MAX_BYTES } from './originals.ts';
import type { NewWebpage, WebpageStore } from './webpages.ts';

/** A page to record, and when; `original`: its file's bytes, kept in the database (small). */
export interface PageRecord {
  page: NewWebpage;
  now: number;
  original?: Uint8Array;
}

/**
 * Records pages whose files are stored in one transaction (a page that cannot be recorded fails
 * alone). A page whose id exists already (a concurrent upload of the same bytes) is kept,
 * restored if it was deleted. Runs where the group is: the ingest worker, or the main thread.
 */
export function recordGroup(
  db: Database,
  webpages: WebpageStore,
  items: readonly PageRecord[],
): Settled<void>[] {
  const outcomes: Settled<void>[] = items.map(() => ({ ok: true, value: undefined }));
  try {
    db.transaction(() => record(webpages, items))();
  } catch {
    // One page that cannot be recorded does not fail the others: each on its own.
    for (const [index, item] of items.entries()) {
      try {
        db.transaction(() => record(webpages, [item]))();
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
    }
  }
  return outcomes;
}

function record(webpages: WebpageStore, items: readonly PageRecord[]): void {
  const inserted = webpages.insertMany(items);
  for (const [index, item] of items.entries()) {
    if (inserted[index] === true) continue;
    // Inserted by a concurrent upload of the same bytes in the meantime: same as a re-upload.
    const existing = webpages.find(item.page.id);
    if (existing?.deleted === true) webpages.restore(item.page.id, item.now);
  }
}

/**
 * New pages, each durable when its promise resolves (its file stored, its record committed), so
 * an acknowledged upload survives a crash. Uploads held in memory (under 1 MB, nearly all) have
 * their records written by the ingest worker with the others ready meanwhile (group commit), off
 * the main thread: a small one's bytes in the same transaction (originals.ts), a larger one's
 * file written first by the blob store's writer thread while it is parsed. A large one (staged
 * in a file) is stored on the main thread: its file renamed into place and its record written,
 * in groups too.
 */
export class WebpageIngest {
  private readonly staged = new GroupCommit<PageRecord & { file: StagedBlob }, void>((items) =>
    this.storeStaged(items),
  );
  /** Small uploads in progress by id: their files are not removed while one of them goes on. */
  private readonly inFlight = new Map<string, number>();
  /** Files of failed small uploads being removed: a new upload of the id waits for it. */
  private readonly removals = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly webpages: WebpageStore,
    private readonly thread: IngestThread,
  ) {}

  /**
   * Stores an upload held in memory under `id`. A small one's bytes are recorded with `page` once
   * it is parsed, in the database. A larger one has its file written while `page` is parsed, then
   * its record; when the parse or the file fails, the file is removed (unless a page of that id is
   * recorded or another upload of it is in progress) and the error thrown. `file`'s bytes must
   * have been handed to the parse already: they are moved to the writer, or to the ingest worker.
   */
  async addHeld(
    file: StagedBytes,
    id: string,
    page: Promise<NewWebpage>,
    now: number,
  ): Promise<void> {
    if (file.bytes.byteLength <= ORIGINAL_IN_DATABASE_MAX_BYTES) {
      // Nothing to write before the record, nor to remove when the parse fails.
      await this.thread.add(await page, now, file.bytes);
      return;
    }
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    // Its failure is thrown below, once the file is settled too.
    page.catch(() => undefined);
    let recorded = false;
    try {
      await this.removals.get(id);
      const [parsed, written] = await Promise.allSettled([page, this.blobs.commit(file, id)]);
      if (parsed.status === 'rejected') throw parsed.reason;
      if (written.status === 'rejected') throw written.reason;
      await this.thread.add(parsed.value, now);
      recorded = true;
    } finally {
      // A failed upload answers once its file is gone (a client may look right away).
      await this.release(id, recorded);
    }
  }

  /** Stores a large upload: its staged file renamed under the page's id, then its record. */
  add(file: StagedBlob, page: NewWebpage, now: number): Promise<void> {
    return this.staged.submit({ file, page, now });
  }

  /** Stops the ingest worker once it has answered the pages it has. */
  close(): Promise<void> {
    return this.thread.close();
  }

  /** The upload of `id` is done: its file is removed if nothing else keeps it. */
  private release(id: string, recorded: boolean): Promise<void> | undefined {
    const left = (this.inFlight.get(id) ?? 1) - 1;
    if (left > 0) {
      this.inFlight.set(id, left);
      return undefined;
    }
    this.inFlight.delete(id);
    if (recorded || this.webpages.find(id) !== undefined) return undefined;
    // Left by a crash instead, the file would be an orphan, removed at the next start.
    const removal = this.blobs
      .remove(id)
      .catch(() => undefined)
      .finally(() => this.removals.delete(id));
    this.removals.set(id, removal);
    return removal;
  }

  private async storeStaged(
    items: readonly (PageRecord & { file: StagedBlob })[],
  ): Promise<Settled<void>[]> {
    const stored = await this.blobs.commitMany(
      items.map((item) => ({ staged: item.file, id: item.page.id })),
    );
    const ready = items.filter((_, index) => stored[index] === undefined);
    const recorded = recordGroup(this.db, this.webpages, ready);
    let next = 0;
    return stored.map((error) =>
      error === undefined
        ? (recorded[next++] ?? { ok: true, value: undefined })
        : { ok: false, error },
    );
  }
}
