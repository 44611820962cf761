// The records of small uploads, written off the main thread: a worker (ingest-worker.ts) with its
// own connection to the database writes the pages that are ready together, in one transaction
// (group commit). On the main thread that was ~1 ms of SQLite per page (the insert, its triggers,
// the full-text terms, the commit) during which no other request moved. The main thread's list
// caches learn of these pages from the change log the triggers keep (page-changes.ts).
import { exited, movable, startWorker, WorkerRequests, workerModule } from '../worker-module.ts';
import {
  CLOSE,
  type IngestReply,
  type IngestRequest,
  type IngestWorkerData,
} from './ingest-messages.ts';
import type { NewWebpage } from './webpages.ts';

const WORKER_URL = workerModule('ingest-worker', import.meta.url);

/** The main thread's side of the ingest worker, started at the first page. */
export class IngestThread {
  private readonly requests: WorkerRequests<void>;

  constructor(data: IngestWorkerData) {
    this.requests = new WorkerRequests<void>(
      'the ingest worker',
      () => startWorker(WORKER_URL, { workerData: data }),
      (message) => {
        const { seq, error } = message as IngestReply;
        return {
          id: seq,
          outcome:
            error === undefined
              ? { ok: true, value: undefined }
              : { ok: false, error: Object.assign(new Error(error.message), { code: error.code }) },
        };
      },
    );
  }

  /**
   * Resolves once the page's record is committed: its file stored already, or its bytes given as
   * `original` (small: kept in the database with the record; moved to the worker, so empty here
   * afterwards when they fill their buffer).
   */
  add(page: NewWebpage, now: number, original?: Uint8Array): Promise<void> {
    return this.requests.request(
      (seq) => ({ seq, page, now, original }) satisfies IngestRequest,
      original === undefined ? [] : movable([original]),
    );
  }

  /** The worker answers what it has, closes its connection and ends; resolves once it has. */
  close(): Promise<void> {
    const worker = this.requests.release();
    worker?.postMessage(CLOSE);
    return exited(worker);
  }
}
