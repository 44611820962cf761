// The full-text index, kept in a database file of its own (search.db) by a worker thread
// (search-index-worker.ts), after the archive's commits rather than inside them: the archive's
// triggers only log which texts changed (search_changes, migration 12). An upload used to wait for
// its terms to be written and for the index's segments to merge (~0.4–0.7 ms of the ~1 ms its
// record took in the archive's one write transaction at a time).
//
// A search still sees every write made before it: it first waits until the index holds the last
// change committed to the archive (`caughtUp`), which is at once when nothing is pending. The
// main connection reads the index attached as `search`. The file holds nothing that the archive
// does not: one that cannot be read (at the start, or when the worker fails on it) is removed and
// the index built again.
import type { Database, Statement } from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { exited, startWorker, workerModule } from '../worker-module.ts';
import {
  latestChangeStatement,
  prepareSearchIndex,
  type SearchIndexMessage,
  type SearchIndexReport,
  type SearchIndexWorkerData,
} from './search-index-schema.ts';

const WORKER_URL = workerModule('search-index-worker', import.meta.url);

/** How long closing waits for the worker to end (ms). */
const CLOSE_WAIT_MS = 1000;

/** How often the main thread looks for changes to index when no search waits (ms). */
const INTERVAL_MS = 200;

interface Waiter {
  change: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class SearchIndex {
  /** The last change the index holds (as its worker last reported). */
  private indexed: number;
  private readonly latest: Statement<[], number | undefined>;
  private readonly timer: NodeJS.Timeout;
  private worker: Worker | undefined;
  /** A message sent that the worker has not finished with. */
  private busy = false;
  private waiters: Waiter[] = [];
  private closed = false;

  /** The worker failed and the index was made anew since it last reported. */
  private remade = false;

  constructor(
    private readonly db: Database,
    private readonly files: SearchIndexWorkerData,
  ) {
    try {
      this.indexed = this.attach();
    } catch {
      // A file that is not a readable index (damaged, cut short): made anew from the texts.
      this.indexed = this.remake();
    }
    this.latest = latestChangeStatement(db, 'main');
    this.timer = setInterval(() => this.look(), INTERVAL_MS).unref();
    this.look();
  }

  /**
   * Undefined when the index holds every change committed to the archive so far; else a promise
   * resolved once it does.
   */
  caughtUp(): Promise<void> | undefined {
    const change = this.latest.get() ?? 0;
    if (change <= this.indexed) return undefined;
    if (this.closed) return Promise.reject(new Error('the search index is closed'));
    return new Promise((resolve, reject) => {
      this.waiters.push({ change, resolve, reject });
      this.send();
    });
  }

  /**
   * Stops the worker; resolves once it has closed its connections and ended, or after a second
   * if it is in a long step (a rebuild): the process may end it then, its transaction undone and
   * done again at the next start.
   */
  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const worker = this.worker;
    worker?.postMessage('close' satisfies SearchIndexMessage);
    this.worker = undefined;
    this.fail(new Error('the search index is closed'));
    return exited(worker, CLOSE_WAIT_MS);
  }

  /** Attaches the index's file as `search`; returns the last change it holds. */
  private attach(): number {
    this.db.prepare('ATTACH DATABASE ? AS search').run(this.files.search);
    this.db.pragma('search.journal_mode = WAL');
    this.db.pragma('search.synchronous = NORMAL');
    return prepareSearchIndex(this.db, 'search');
  }

  /** Removes the index's file and attaches a new one, to be built from every text. */
  private remake(): number {
    try {
      this.db.exec('DETACH DATABASE search');
    } catch {
      // It was not attached.
    }
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(`${this.files.search}${suffix}`, { force: true });
    return this.attach();
  }

  /** Sends the worker to index what the archive changed, if it changed anything since. */
  private look(): void {
    if ((this.latest.get() ?? 0) > this.indexed) this.send();
  }

  private send(): void {
    if (this.closed || this.busy) return;
    this.busy = true;
    (this.worker ?? this.start()).postMessage('index' satisfies SearchIndexMessage);
  }

  private start(): Worker {
    const worker = startWorker(WORKER_URL, { workerData: this.files });
    worker.unref();
    worker.on('message', (report: SearchIndexReport) => this.reported(report));
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.busy = false;
      const error = new Error(
        `the search index stopped (${failure?.message ?? `exit code ${String(code)}`})`,
      );
      if (this.closed || this.remade) {
        this.fail(error);
        return;
      }
      // Once (until the index reports again): its file made anew and built from the texts, for
      // the searches that wait; a second failure fails them.
      this.remade = true;
      try {
        this.indexed = this.remake();
      } catch (remaking) {
        this.fail(remaking instanceof Error ? remaking : error);
        return;
      }
      this.send();
    });
    this.worker = worker;
    return worker;
  }

  private reported({ indexed, idle }: SearchIndexReport): void {
    this.indexed = indexed;
    this.remade = false;
    const waiting: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.change <= indexed) waiter.resolve();
      else waiting.push(waiter);
    }
    this.waiters = waiting;
    if (!idle) return;
    this.busy = false;
    // Changes committed while the worker was reading the log.
    if (this.waiters.length > 0) this.send();
  }

  private fail(error: Error): void {
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters = [];
  }
}
