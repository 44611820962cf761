// The message after a batch of uploads: once nothing is left to send, what was added, what was
// already in the archive and what failed since the last message.
import { linkError } from './upload-errors.ts';
import type { UploadItem, UploadQueue, UploadStatus } from './upload-queue.ts';

export interface UploadSummary {
  added: UploadItem[];
  existing: UploadItem[];
  failed: UploadItem[];
}

export interface UploadSummaryMessage {
  message: string;
  tone: 'success' | 'error';
  details?: string[];
  /** The webpage to offer to open: the batch stored exactly one and nothing failed. */
  webpageId?: string;
  /** The title of that webpage. */
  webpageTitle?: string;
}

const REPORTED: ReadonlySet<UploadStatus> = new Set(['added', 'existing', 'failed']);

/**
 * Whether an item is still on its way without the user: checking, encoding, uploading, or queued
 * and able to start. A blocked file, or one held by an edit or an invalid link, waits for the
 * user and does not hold the message back.
 */
export function isOnItsWay(item: UploadItem): boolean {
  switch (item.status) {
    case 'checking':
    case 'encoding':
    case 'uploading':
      return true;
    case 'queued':
      return !item.editing && !linkError(item.link);
    default:
      return false;
  }
}

/**
 * Follows the queue's snapshots: returns what ended since the last summary once nothing is on
 * its way any more, else null. An item is reported again only when it ends differently (a failed
 * file retried and added).
 */
export function createUploadSummarizer(): (items: readonly UploadItem[]) => UploadSummary | null {
  const reported = new Map<string, UploadStatus>();
  return (items) => {
    if (items.some(isOnItsWay)) return null;
    const ids = new Set(items.map((item) => item.id));
    for (const id of reported.keys()) if (!ids.has(id)) reported.delete(id);
    const ended = items.filter(
      (item) => REPORTED.has(item.status) && reported.get(item.id) !== item.status,
    );
    if (!ended.length) return null;
    for (const item of ended) reported.set(item.id, item.status);
    return {
      added: ended.filter((item) => item.status === 'added'),
      existing: ended.filter((item) => item.status === 'existing'),
      failed: ended.filter((item) => item.status === 'failed'),
    };
  };
}

const webpages = (n: number) => (n === 1 ? '1 webpage' : `${n} webpages`);

function titleOf(item: UploadItem): string {
  return item.webpage?.title.trim() || item.file.name;
}

/** "Added “Title”", "3 webpages added, 1 already in the archive, 2 failed", … */
export function describeSummary({ added, existing, failed }: UploadSummary): UploadSummaryMessage {
  const stored = [...added, ...existing];
  const tone = failed.length ? 'error' : 'success';
  const details = failed.map((item) => `${item.file.name}: ${item.error ?? 'Failed'}`);
  if (stored.length === 1 && !failed.length) {
    const item = stored[0]!;
    const title = titleOf(item);
    return {
      tone,
      message: added.length ? `Added “${title}”` : `“${title}” was already in the archive`,
      webpageId: item.webpage?.id,
      webpageTitle: title,
    };
  }
  if (!stored.length && failed.length === 1) {
    return { tone, message: `Could not upload “${failed[0]!.file.name}”: ${failed[0]!.error}` };
  }
  const parts = [
    added.length ? `${webpages(added.length)} added` : '',
    existing.length ? `${existing.length} already in the archive` : '',
    failed.length ? `${failed.length} failed` : '',
  ].filter(Boolean);
  return {
    tone,
    message: `Uploads finished: ${parts.join(', ')}`,
    details: details.length ? details : undefined,
  };
}

/**
 * Calls `report` with a summary each time a batch of uploads ends (see `createUploadSummarizer`).
 * Returns the unsubscribe function.
 */
export function onUploadsFinished(
  queue: Pick<UploadQueue, 'subscribe' | 'getSnapshot'>,
  report: (summary: UploadSummary) => void,
): () => void {
  const summarize = createUploadSummarizer();
  // What already ended before this subscription is not news.
  summarize(queue.getSnapshot().filter((item) => !isOnItsWay(item)));
  return queue.subscribe(() => {
    const summary = summarize(queue.getSnapshot());
    if (summary) report(summary);
  });
}
