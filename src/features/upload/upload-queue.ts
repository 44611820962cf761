// The upload queue: an external store (for useSyncExternalStore) that checks each file's format,
// then encodes and sends at most `concurrency` files at a time. Encoding and sending are injected,
// so the queue is tested without workers or network.
import { checkFormat } from './detect-format.ts';
import type { FormatCheck, WebpageExt } from './detect-format.ts';
import { describeUploadError, FileReadError, linkError } from './upload-errors.ts';
import type { UploadFields, UploadResult, Webpage } from './upload-request.ts';

export type UploadStatus =
  /** Reading the first bytes to check the format. */
  | 'checking'
  /** Waiting for the user: the format check found a problem (see `check.message`). */
  | 'blocked'
  | 'queued'
  | 'encoding'
  | 'uploading'
  /** Stored as a new webpage. */
  | 'added'
  /** The same bytes were already in the archive; the server returned that webpage. */
  | 'existing'
  | 'failed'
  | 'canceled';

export interface UploadItem {
  readonly id: string;
  readonly file: File;
  /** The format it will be sent as; null until the check passes or the user picks one. */
  readonly ext: WebpageExt | null;
  /** The format check, null while it runs. */
  readonly check: FormatCheck | null;
  /** Optional title and link sent with the file (editable until it starts). */
  readonly title: string;
  readonly link: string;
  readonly status: UploadStatus;
  /** Progress of the current step (encoding or uploading), 0 to 1. */
  readonly progress: number;
  readonly error: string | null;
  readonly webpage: Webpage | null;
  /** The user is editing the title or link: the item does not start until they are done. */
  readonly editing: boolean;
}

export interface EncodeOptions {
  readonly signal: AbortSignal;
  readonly onProgress: (fraction: number) => void;
}

export interface SendOptions {
  /** The file's base64, as produced by `encode`. */
  readonly content: Blob;
  readonly fields: UploadFields;
  readonly signal: AbortSignal;
  readonly onProgress: (fraction: number) => void;
}

export interface UploadQueueDeps {
  /** The first bytes of a file, for the format check. */
  readHead(file: File): Promise<Uint8Array>;
  /** The last bytes of a file, for the truncation check; without it, that check is skipped. */
  readTail?(file: File): Promise<Uint8Array>;
  /** The file's base64. */
  encode(file: File, options: EncodeOptions): Promise<Blob>;
  send(options: SendOptions): Promise<UploadResult>;
  /** Files encoded or sent at the same time (default 2). */
  concurrency?: number;
}

export interface UploadQueue {
  subscribe(listener: () => void): () => void;
  /** The items, oldest first; a new array (and new item objects) after every change. */
  getSnapshot(): readonly UploadItem[];
  /** Adds files to the queue; returns their item ids. */
  enqueue(files: Iterable<File>): string[];
  /** Sends a blocked (or queued) file as `ext`: the "Upload as MHTML" / "Upload anyway" fix. */
  chooseFormat(id: string, ext: WebpageExt): void;
  /** Edits the title or link of a file that has not started. */
  edit(id: string, changes: { title?: string; link?: string }): void;
  /** Holds a queued file while its fields are being edited (so it does not start mid-edit). */
  setEditing(id: string, editing: boolean): void;
  /** Queues a failed or canceled file again. */
  retry(id: string): void;
  retryFailed(): void;
  /** Stops a file that is checking, queued, encoding or uploading; it stays in the list. */
  cancel(id: string): void;
  /** Takes a file off the list (canceling it first when it runs). */
  remove(id: string): void;
  /** Removes the files that were added, were already archived, or were canceled. */
  clearFinished(): void;
  /**
   * Calls `listener` after each successful upload. Uploads that finished while nobody listened are
   * reported once to the next listener, so lists are refreshed even after a background upload.
   */
  onUploaded(listener: () => void): () => void;
}

const ACTIVE: ReadonlySet<UploadStatus> = new Set(['encoding', 'uploading']);
const CANCELABLE: ReadonlySet<UploadStatus> = new Set([
  'checking',
  'queued',
  'encoding',
  'uploading',
]);
const FINISHED: ReadonlySet<UploadStatus> = new Set(['added', 'existing', 'canceled']);

export function isActive(item: UploadItem): boolean {
  return ACTIVE.has(item.status);
}

export function canCancel(item: UploadItem): boolean {
  return CANCELABLE.has(item.status);
}

export function canRetry(item: UploadItem): boolean {
  return item.status === 'failed' || item.status === 'canceled';
}

export function isEditable(item: UploadItem): boolean {
  return item.status === 'checking' || item.status === 'blocked' || item.status === 'queued';
}

/** The request fields of an item: trimmed, empty ones left out. */
export function uploadFields(
  item: Pick<UploadItem, 'title' | 'link'>,
  ext: WebpageExt,
): UploadFields {
  const title = item.title.trim();
  const link = item.link.trim();
  return { ext, ...(title ? { title } : {}), ...(link ? { link } : {}) };
}

export function createUploadQueue(deps: UploadQueueDeps): UploadQueue {
  const concurrency = Math.max(1, deps.concurrency ?? 2);
  let items: readonly UploadItem[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const uploadedListeners = new Set<() => void>();
  let missedUploads = false;
  /** Running items (encoding or uploading) and the controller that stops them. */
  const running = new Map<string, AbortController>();
  /** Base64 of files that were encoded but not stored yet, so a retry does not encode again. */
  const encoded = new Map<string, Blob>();
  /**
   * Ids of the webpages this queue stored. The same bytes sent again (a duplicate in one drop, a
   * second try seconds later) are then known to be in the archive whatever the clocks say.
   */
  const storedIds = new Set<string>();

  const emit = () => {
    for (const listener of listeners) listener();
  };
  const find = (id: string) => items.find((item) => item.id === id);
  const update = (id: string, changes: Partial<UploadItem>) => {
    let changed = false;
    items = items.map((item) => {
      if (item.id !== id) return item;
      changed = true;
      return { ...item, ...changes };
    });
    if (changed) emit();
  };
  const setProgress = (id: string, status: UploadStatus, fraction: number) => {
    const item = find(id);
    if (!item || item.status !== status) return;
    const progress = Math.min(1, Math.max(0, fraction));
    // One render per whole percent is plenty, even for thousands of progress events.
    if (Math.floor(progress * 100) === Math.floor(item.progress * 100)) return;
    update(id, { progress });
  };

  const notifyUploaded = () => {
    if (uploadedListeners.size === 0) missedUploads = true;
    for (const listener of uploadedListeners) listener();
  };

  const afterCheck = (item: UploadItem): Partial<UploadItem> => {
    if (item.ext) return { status: 'queued', progress: 0 };
    return { status: 'blocked' };
  };

  const runCheck = (id: string, file: File) => {
    Promise.resolve()
      .then(() => Promise.all([deps.readHead(file), deps.readTail ? deps.readTail(file) : null]))
      .then(
        ([head, tail]) => {
          const check = checkFormat(
            file.name,
            head,
            tail ? { bytes: tail, size: file.size } : undefined,
          );
          const item = find(id);
          if (!item) return;
          const ext = check.status === 'ok' ? check.ext : item.ext;
          if (item.status !== 'checking') {
            update(id, { check, ext });
            return;
          }
          update(id, { check, ext, ...afterCheck({ ...item, ext }) });
          pump();
        },
        (error: unknown) => {
          const item = find(id);
          if (!item || item.status !== 'checking') return;
          const reason = error instanceof Error ? error.message : String(error);
          update(id, { status: 'failed', error: `Could not read the file: ${reason}` });
        },
      );
  };

  const start = (item: UploadItem, ext: WebpageExt) => {
    const controller = new AbortController();
    const { signal } = controller;
    running.set(item.id, controller);
    const cached = encoded.get(item.id);
    update(item.id, { status: cached ? 'uploading' : 'encoding', progress: 0, error: null });

    const run = async () => {
      let content = cached;
      if (!content) {
        try {
          content = await deps.encode(item.file, {
            signal,
            onProgress: (fraction) => {
              if (!signal.aborted) setProgress(item.id, 'encoding', fraction);
            },
          });
        } catch (error) {
          if (signal.aborted) throw error;
          throw error instanceof FileReadError
            ? error
            : new FileReadError(error instanceof Error ? error.message : String(error));
        }
        if (signal.aborted) throw signal.reason;
        encoded.set(item.id, content);
        update(item.id, { status: 'uploading', progress: 0 });
      }
      const current = find(item.id) ?? item;
      return deps.send({
        content,
        fields: uploadFields(current, ext),
        signal,
        onProgress: (fraction) => {
          if (!signal.aborted) setProgress(item.id, 'uploading', fraction);
        },
      });
    };

    run()
      .then(
        (result) => {
          if (signal.aborted) return;
          encoded.delete(item.id);
          const existed = result.alreadyArchived || storedIds.has(result.webpage.id);
          storedIds.add(result.webpage.id);
          update(item.id, {
            status: existed ? 'existing' : 'added',
            progress: 1,
            webpage: result.webpage,
          });
          notifyUploaded();
        },
        (error: unknown) => {
          if (signal.aborted) return;
          update(item.id, { status: 'failed', error: describeUploadError(error, ext) });
        },
      )
      .finally(() => {
        if (running.get(item.id) === controller) running.delete(item.id);
        pump();
      });
  };

  const pump = () => {
    while (running.size < concurrency) {
      const next = items.find(
        (item) => item.status === 'queued' && item.ext && !item.editing && !linkError(item.link),
      );
      if (!next?.ext) return;
      start(next, next.ext);
    }
  };

  const stop = (id: string) => {
    const controller = running.get(id);
    if (!controller) return;
    running.delete(id);
    controller.abort();
  };

  const requeue = (item: UploadItem) => {
    if (!item.check) {
      update(item.id, { status: 'checking', error: null, progress: 0 });
      runCheck(item.id, item.file);
      return;
    }
    update(item.id, { ...afterCheck(item), error: null });
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => items,
    enqueue(files) {
      const added: UploadItem[] = [];
      for (const file of files) {
        added.push({
          id: `upload-${nextId++}`,
          file,
          ext: null,
          check: null,
          title: '',
          link: '',
          status: 'checking',
          progress: 0,
          error: null,
          webpage: null,
          editing: false,
        });
      }
      if (added.length === 0) return [];
      items = [...items, ...added];
      emit();
      for (const item of added) runCheck(item.id, item.file);
      return added.map((item) => item.id);
    },
    chooseFormat(id, ext) {
      const item = find(id);
      if (!item || !(item.status === 'blocked' || item.status === 'queued')) return;
      update(id, { ext, status: 'queued', progress: 0, error: null });
      pump();
    },
    edit(id, changes) {
      const item = find(id);
      if (!item || !isEditable(item)) return;
      const { title = item.title, link = item.link } = changes;
      update(id, { title, link });
      pump();
    },
    setEditing(id, editing) {
      const item = find(id);
      if (!item || item.editing === editing) return;
      update(id, { editing });
      if (!editing) pump();
    },
    retry(id) {
      const item = find(id);
      if (!item || !canRetry(item)) return;
      requeue(item);
      pump();
    },
    retryFailed() {
      for (const item of items) if (item.status === 'failed') requeue(item);
      pump();
    },
    cancel(id) {
      const item = find(id);
      if (!item || !canCancel(item)) return;
      stop(id);
      update(id, { status: 'canceled', progress: 0 });
      pump();
    },
    remove(id) {
      if (!find(id)) return;
      stop(id);
      encoded.delete(id);
      items = items.filter((item) => item.id !== id);
      emit();
      pump();
    },
    clearFinished() {
      const kept = items.filter((item) => !FINISHED.has(item.status));
      if (kept.length === items.length) return;
      for (const item of items) if (FINISHED.has(item.status)) encoded.delete(item.id);
      items = kept;
      emit();
    },
    onUploaded(listener) {
      uploadedListeners.add(listener);
      if (missedUploads) {
        missedUploads = false;
        listener();
      }
      return () => uploadedListeners.delete(listener);
    },
  };
}
