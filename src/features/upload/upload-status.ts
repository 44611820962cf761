// Words for an item's state, shared by its row and the live region that announces changes.
import { linkError } from './upload-errors.ts';
import type { UploadItem, UploadQueue, UploadStatus } from './upload-queue.ts';

export function percent(fraction: number): number {
  return Math.floor(Math.min(1, Math.max(0, fraction)) * 100);
}

/** The status line of a file, e.g. "Uploading 42%" or the reason it failed. */
export function describeStatus(item: UploadItem): string {
  switch (item.status) {
    case 'checking':
      return 'Checking the format';
    case 'blocked':
      return item.check && item.check.status !== 'ok' ? item.check.message : 'Needs a format';
    case 'queued':
      if (linkError(item.link)) return 'Queued — waiting for a valid link';
      return item.editing ? 'Queued — waits while you edit' : 'Queued';
    case 'encoding':
      return `Encoding ${percent(item.progress)}%`;
    case 'uploading':
      return `Uploading ${percent(item.progress)}%`;
    case 'added':
      return 'Added';
    case 'existing':
      return 'Already in the archive';
    case 'failed':
      return item.error ?? 'Failed';
    case 'canceled':
      return 'Canceled';
  }
}

const ANNOUNCED: ReadonlySet<UploadStatus> = new Set([
  'blocked',
  'added',
  'existing',
  'failed',
  'canceled',
]);

/**
 * What a screen reader should hear after a change of the queue: files added to the list, and files
 * that need attention or reached an end (added, already archived, failed, canceled). Progress and
 * transient steps are left out so the announcements stay short. Null when there is nothing to say.
 */
export function announceChanges(
  previous: readonly UploadItem[],
  next: readonly UploadItem[],
): string | null {
  const before = new Map(previous.map((item) => [item.id, item.status]));
  const messages: string[] = [];
  const newFiles = next.filter((item) => !before.has(item.id)).length;
  if (newFiles > 0)
    messages.push(`${newFiles} ${newFiles === 1 ? 'file' : 'files'} added to the list`);
  for (const item of next) {
    const was = before.get(item.id);
    if (was === undefined || was === item.status || !ANNOUNCED.has(item.status)) continue;
    messages.push(`${item.file.name}: ${describeStatus(item)}`);
  }
  return messages.length > 0 ? messages.join('. ') : null;
}

export interface Announcer {
  subscribe(listener: () => void): () => void;
  /** The latest announcement ('' before the first). */
  getSnapshot(): string;
}

/** Follows a queue and keeps the latest announcement, for an `aria-live` region. */
export function createAnnouncer(queue: UploadQueue): Announcer {
  let previous = queue.getSnapshot();
  let text = '';
  const listeners = new Set<() => void>();
  queue.subscribe(() => {
    const next = queue.getSnapshot();
    const message = announceChanges(previous, next);
    previous = next;
    if (message === null) return;
    text = message;
    for (const listener of listeners) listener();
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => text,
  };
}
