// The import of a dropped folder or .zip: an external store (for useSyncExternalStore) that checks,
// encodes and sends the saved pages of a source at most `concurrency` at a time, and counts what
// happened to each (added / already there / refused / skipped, with why). Unlike the upload queue
// it keeps no row per file: a drop of 10,000 files is a progress bar and a summary. Each file's
// bytes are read (a zip entry inflated) only when its turn comes. Resumable: the key of every file
// the archive stored is remembered (`DoneStore`), and a key found there is not sent again.
import type { FormatCheck, WebpageExt } from '../detect-format.ts';

/** Whether a file is a .zip (read as an archive of saved pages, not uploaded). */
export function isZipName(name: string): boolean {
  return name.toLowerCase().endsWith('.zip');
}

export interface Refusal {
  readonly name: string;
  readonly reason: string;
}

export interface ImportCandidate {
  /** The path shown to the user. */
  readonly name: string;
  /** What the resume remembers: path, size and last modification (or CRC-32 for zip entries). */
  readonly key: string;
  readonly size: number;
  /** The file's bytes, read (or inflated) now. */
  load(): Promise<Blob>;
}

export interface ImportSource {
  readonly candidates: readonly ImportCandidate[];
  readonly skipped: readonly Refusal[];
  readonly refused: readonly Refusal[];
}

export interface ImportState {
  readonly status: 'idle' | 'reading' | 'running' | 'done' | 'stopped';
  /** What was dropped ("saved-pages.zip", "a folder"). */
  readonly label: string;
  readonly total: number;
  readonly done: number;
  readonly bytes: number;
  readonly totalBytes: number;
  readonly added: number;
  readonly existing: number;
  /** Sent by an earlier import (remembered): not sent again. */
  readonly resumed: number;
  readonly refused: readonly Refusal[];
  readonly skipped: readonly Refusal[];
  /** Why the import stopped (unreadable zip, archive unreachable, canceled). */
  readonly error: string | null;
}

export interface DoneStore {
  has(key: string): boolean;
  add(key: string): void;
  /** Writes what was added (called now and then, and at the end). */
  flush(): void;
}

export interface SendAnswer {
  readonly id: string;
  readonly alreadyArchived: boolean;
}

export interface ImportDeps {
  check(file: Blob, name: string): Promise<FormatCheck>;
  encode(file: Blob, signal: AbortSignal): Promise<Blob>;
  send(content: Blob, ext: WebpageExt, signal: AbortSignal): Promise<SendAnswer>;
  /** The reason shown for a refused upload; `stop` ends the whole import (offline, 401). */
  describeError(error: unknown, ext: WebpageExt): { reason: string; stop: boolean };
  doneStore(): DoneStore;
  concurrency?: number;
  /** Called once when a run ends having stored something. */
  onStored?(): void;
}

export interface ImportRunner {
  subscribe(listener: () => void): () => void;
  getSnapshot(): ImportState;
  /** Starts an import (one at a time: a running one is stopped first). */
  start(label: string, read: () => Promise<ImportSource>): Promise<void>;
  cancel(): void;
  /** Back to idle (hides the summary). */
  dismiss(): void;
}

export const IDLE: ImportState = {
  status: 'idle',
  label: '',
  total: 0,
  done: 0,
  bytes: 0,
  totalBytes: 0,
  added: 0,
  existing: 0,
  resumed: 0,
  refused: [],
  skipped: [],
  error: null,
};

/** What a format check means for an import: the format to send, or why not. */
export function formatToSend(check: FormatCheck): { ext: WebpageExt } | { reason: string } {
  switch (check.status) {
    case 'ok':
      return { ext: check.ext };
    case 'mismatch':
      return { ext: check.detected };
    case 'unsupported':
      return check.detected ? { ext: check.detected } : { reason: check.message };
    default:
      return { reason: check.message };
  }
}

export function createImportRunner(deps: ImportDeps): ImportRunner {
  let state: ImportState = IDLE;
  const listeners = new Set<() => void>();
  let controller: AbortController | null = null;
  let scheduled = false;
  /**
   * Ids this runner saw stored: the same bytes sent again (in another zip, seconds later) are
   * known to be in the archive whatever the clocks say (like the upload queue's).
   */
  const storedIds = new Set<string>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const set = (changes: Partial<ImportState>, now = false) => {
    state = { ...state, ...changes };
    if (now) {
      emit();
      return;
    }
    // Thousands of small files: one render per task is plenty.
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      emit();
    });
  };

  const runOne = async (
    candidate: ImportCandidate,
    store: DoneStore,
    signal: AbortSignal,
  ): Promise<void> => {
    if (store.has(candidate.key)) {
      set({ resumed: state.resumed + 1 });
      return;
    }
    let file: Blob;
    try {
      file = await candidate.load();
    } catch (error) {
      set({
        refused: [
          ...state.refused,
          { name: candidate.name, reason: error instanceof Error ? error.message : String(error) },
        ],
      });
      return;
    }
    const decision = formatToSend(await deps.check(file, candidate.name));
    if ('reason' in decision) {
      set({ refused: [...state.refused, { name: candidate.name, reason: decision.reason }] });
      return;
    }
    try {
      const content = await deps.encode(file, signal);
      const answer = await deps.send(content, decision.ext, signal);
      store.add(candidate.key);
      const existed = answer.alreadyArchived || storedIds.has(answer.id);
      storedIds.add(answer.id);
      if (existed) set({ existing: state.existing + 1 });
      else set({ added: state.added + 1 });
    } catch (error) {
      if (signal.aborted) throw error;
      const { reason, stop } = deps.describeError(error, decision.ext);
      if (stop) throw new Error(reason);
      set({ refused: [...state.refused, { name: candidate.name, reason }] });
    }
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    async start(label, read) {
      controller?.abort();
      const own = new AbortController();
      controller = own;
      const { signal } = own;
      set({ ...IDLE, status: 'reading', label }, true);
      let source: ImportSource;
      try {
        source = await read();
      } catch (error) {
        if (controller !== own) return;
        controller = null;
        set(
          { status: 'stopped', error: error instanceof Error ? error.message : String(error) },
          true,
        );
        return;
      }
      if (signal.aborted) {
        if (controller === own) {
          controller = null;
          set({ status: 'stopped', error: 'The import was canceled' }, true);
        }
        return;
      }
      const store = deps.doneStore();
      set(
        {
          status: 'running',
          total: source.candidates.length,
          totalBytes: source.candidates.reduce((sum, item) => sum + item.size, 0),
          skipped: source.skipped,
          refused: source.refused,
        },
        true,
      );
      let next = 0;
      const worker = async () => {
        while (!signal.aborted && next < source.candidates.length) {
          const candidate = source.candidates[next++]!;
          await runOne(candidate, store, signal);
          set({ done: state.done + 1, bytes: state.bytes + candidate.size });
          if (state.done % 50 === 0) store.flush();
        }
      };
      try {
        await Promise.all(
          Array.from({ length: Math.max(1, deps.concurrency ?? 2) }, () => worker()),
        );
        if (signal.aborted) throw new Error('The import was canceled');
        set({ status: 'done' }, true);
      } catch (error) {
        own.abort();
        if (controller === own) {
          set(
            {
              status: 'stopped',
              error: error instanceof Error ? error.message : String(error),
            },
            true,
          );
        }
      } finally {
        store.flush();
        if (state.added + state.existing > 0) deps.onStored?.();
        if (controller === own) controller = null;
      }
    },
    cancel() {
      controller?.abort(new Error('The import was canceled'));
    },
    dismiss() {
      if (state.status === 'running' || state.status === 'reading') return;
      set(IDLE, true);
    },
  };
}
