import type { ChangeMark, PageChanges } from './page-changes.ts';
import type { WriteGeneration } from './write-generation.ts';

interface Entry {
  generation: string;
  ids: readonly string[];
  /** The query has no more ids than these. */
  complete: boolean;
  /** The page changes when the ids were read or last corrected (with `changes`). */
  mark: ChangeMark | undefined;
}

/**
 * Corrects a query's kept ids for pages that changed: `ids` as read before, `changed` the pages
 * that may have changed since; returns the query's ids now (a prefix of them unless `complete`).
 */
export type PatchIds = (
  ids: readonly string[],
  complete: boolean,
  changed: readonly string[],
) => string[];

/** More changed pages than this and the ids are read again rather than corrected. */
export const MAX_PATCHED_PAGES = 64;

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
    private readonly generation: Pick<WriteGeneration, 'current'>,
    private readonly options: IdPrefixCacheOptions = { entries: 16, maxIds: 120_000 },
    /** The pages this process changed: a kept prefix is corrected for them (with `patch`). */
    private readonly changes?: Pick<PageChanges, 'mark' | 'since'>,
  ) {}

  /**
   * Ids `from` to `to` (exclusive) of the query `key`. `load(count)` returns its first `count`
   * ids (fewer when there are no more); it is called when the kept prefix is missing, stale or
   * too short, with `count` = `to` plus `ahead`. After a write, `patch` corrects the kept ids
   * for the few pages that changed (when they are known), instead of `load`.
   */
  slice(
    key: string,
    from: number,
    to: number,
    ahead: number,
    load: (count: number) => string[],
    patch?: PatchIds,
  ): string[] {
    const generation = this.generation.current();
    let entry = this.entries.get(key);
    if (entry !== undefined) this.drop(key);
    if (entry !== undefined && entry.generation !== generation) {
      entry = this.patched(entry, generation, patch);
    }
    const usable =
      entry !== undefined &&
      entry.generation === generation &&
      (entry.complete || entry.ids.length >= to);
    if (entry === undefined || !usable) {
      const count = to + ahead;
      const mark = this.changes?.mark();
      const ids = load(count);
      entry = { generation, ids, complete: ids.length < count, mark };
    }
    if (entry.ids.length <= this.options.maxIds) this.keep(key, entry);
    return entry.ids.slice(from, to);
  }

  /** The entry corrected for the pages changed since it was read; undefined when unknown. */
  private patched(entry: Entry, generation: string, patch: PatchIds | undefined) {
    if (patch === undefined || this.changes === undefined || entry.mark === undefined) return;
    const mark = this.changes.mark();
    const changed = this.changes.since(entry.mark, MAX_PATCHED_PAGES);
    if (changed === undefined) return undefined;
    const ids = changed.length === 0 ? entry.ids : patch(entry.ids, entry.complete, changed);
    return { generation, ids, complete: entry.complete, mark };
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
