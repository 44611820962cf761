import type { WriteGeneration } from './write-generation.ts';

interface Entry {
  generation: string;
  ids: readonly string[];
  /** The query has no more ids than these. */
  complete: boolean;
}

export interface IdPrefixCacheOptions {
  /** Entries kept (least recently used dropped first). */
  entries: number;
  /** Ids kept in all entries together (~100 bytes each). */
  maxIds: number;
}

/**
 * The first ids of sorted list queries, kept until the next write. Paging deep into a long
 * filtered list (page 500 of a label) makes SQLite find, filter and sort everything before the
 * page on each request; with the prefix kept, the pages after it are slices until anything is
 * written. A result is never served from another generation of the data.
 */
export class IdPrefixCache {
  private readonly entries = new Map<string, Entry>();
  private ids = 0;

  constructor(
    private readonly generation: WriteGeneration,
    private readonly options: IdPrefixCacheOptions = { entries: 16, maxIds: 120_000 },
  ) {}

  /**
   * Ids `from` to `to` (exclusive) of the query `key`. `load(count)` returns its first `count`
   * ids (fewer when there are no more); it is called when the kept prefix is missing, stale or
   * too short, with `count` = `to` plus `ahead`.
   */
  slice(
    key: string,
    from: number,
    to: number,
    ahead: number,
    load: (count: number) => string[],
  ): string[] {
    const generation = this.generation.current();
    let entry = this.entries.get(key);
    if (entry !== undefined) this.drop(key);
    const usable =
      entry !== undefined &&
      entry.generation === generation &&
      (entry.complete || entry.ids.length >= to);
    if (entry === undefined || !usable) {
      const count = to + ahead;
      const ids = load(count);
      entry = { generation, ids, complete: ids.length < count };
    }
    if (entry.ids.length <= this.options.maxIds) this.keep(key, entry);
    return entry.ids.slice(from, to);
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.ids += entry.ids.length;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.options.entries && this.ids <= this.options.maxIds) break;
      if (old === entry) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.ids -= entry.ids.length;
  }
}
