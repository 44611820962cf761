import type { BlobStore, Staged } from './blobs.ts';
import type { Database } from './database.ts';
import { GroupCommit, type Settled } from './group-commit.ts';
import type { NewWebpage, WebpageStore } from './webpages.ts';

/** A parsed upload: its bytes (in memory or a staged file) and the page to record. */
export interface IngestItem {
  staged: Staged;
  page: NewWebpage;
  now: number;
}

/**
 * New pages in groups (group commit): the uploads that are ready while a group is being stored
 * wait for the next one, then their files are synced together, renamed into place, their folders
 * synced once each, and their records written in one transaction. `add` resolves once its page
 * is durable (its file on disk, its record committed): an acknowledged upload survives a crash.
 * Under load, a group holds as many uploads as arrived during the previous one's syncs.
 */
export class WebpageIngest {
  private readonly group = new GroupCommit<IngestItem, void>((items) => this.commit(items));

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly webpages: WebpageStore,
  ) {}

  /**
   * Stores the file under the page's id and records the page; when a page of that id exists
   * already (a concurrent upload of the same bytes), it is kept, restored if it was deleted.
   */
  add(item: IngestItem): Promise<void> {
    return this.group.submit(item);
  }

  private async commit(items: readonly IngestItem[]): Promise<Settled<void>[]> {
    const stored = await this.blobs.commitMany(
      items.map((item) => ({ staged: item.staged, id: item.page.id })),
    );
    const outcomes: Settled<void>[] = stored.map((error) =>
      error === undefined ? { ok: true, value: undefined } : { ok: false, error },
    );
    const ready = items.filter((_, index) => stored[index] === undefined);
    try {
      this.db.transaction(() => this.record(ready))();
    } catch {
      // One page that cannot be recorded does not fail the others: each on its own.
      for (const [index, item] of items.entries()) {
        if (stored[index] !== undefined) continue;
        try {
          this.db.transaction(() => this.record([item]))();
        } catch (error) {
          outcomes[index] = { ok: false, error };
        }
      }
    }
    return outcomes;
  }

  private record(items: readonly IngestItem[]): void {
    const inserted = this.webpages.insertMany(items);
    for (const [index, item] of items.entries()) {
      if (inserted[index] === true) continue;
      // Inserted by a concurrent upload of the same bytes in the meantime: same as a re-upload.
      const existing = this.webpages.find(item.page.id);
      if (existing?.deleted === true) this.webpages.restore(item.page.id, item.now);
    }
  }
}
