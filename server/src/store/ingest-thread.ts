// The records of small uploads, written off the main thread: a worker (ingest-worker.ts) with its
// own connection to the database writes the pages that are ready together, in one transaction
// (group commit). On the main thread that was ~1 ms of SQLite per page (the insert, its triggers,
// the full-text terms, the commit) during which no other request moved. The main thread's list
// caches learn of these pages from the change log the triggers keep (page-changes.ts).
import type { Worker } from 'node:worker_threads';
import { startWorker, workerModule } from '../worker-module.ts';
import {
  CLOSE,
  type IngestReply,
  type IngestRequest,
  type IngestWorkerData,
} from './ingest-messages.ts';
import type { NewWebpage } from './webpages.ts';

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

const WORKER_URL = workerModule('ingest-worker', import.meta.url);

/**
 * The main thread's side of the ingest worker: started at the first page and kept while the
 * store is open (unreferenced while idle, so it never holds the process open). A worker that
 * stops fails the pages it had; the next page starts another.
 */
export class IngestThread {
  private current: { worker: Worker; pending: Map<number, Pending> } | undefined;
  private nextSeq = 1;

  constructor(private readonly data: IngestWorkerData) {}

  /** Resolves once the page's record is committed (its file must be stored already). */
  add(page: NewWebpage, now: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const { worker, pending } = this.current ?? this.start();
      const seq = this.nextSeq++;
      pending.set(seq, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage({ seq, page, now } satisfies IngestRequest);
      } catch (error) {
        pending.delete(seq);
        if (pending.size === 0) worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** The worker answers what it has, closes its connection and ends. */
  close(): void {
    const worker = this.current?.worker;
    this.current = undefined;
    worker?.postMessage(CLOSE);
  }

  private start(): { worker: Worker; pending: Map<number, Pending> } {
    const worker = startWorker(WORKER_URL, { workerData: this.data });
    const pending = new Map<number, Pending>();
    worker.on('message', ({ seq, error }: IngestReply) => {
      const waiting = pending.get(seq);
      pending.delete(seq);
      if (pending.size === 0) worker.unref();
      if (error === undefined) waiting?.resolve();
      else waiting?.reject(Object.assign(new Error(error.message), { code: error.code }));
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (this.current?.worker === worker) this.current = undefined;
      const error = new Error(
        `the ingest worker stopped (${failure?.message ?? `exit code ${String(code)}`})`,
      );
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    this.current = { worker, pending };
    return this.current;
  }
}
