// Checkpoints of the write-ahead log on a thread of their own. SQLite checkpoints in the connection
// that commits once the log passes 1,000 pages: here the server's main thread, which copies ~4 MB
// into the database and waits for its sync, 20 to 65 ms during which no request moves (measured
// under 8 uploading clients). The server's connections now checkpoint only past a far larger log
// (a safety net, see configureConnection), and a worker with its own connection runs a passive
// checkpoint (it never waits for readers or writers, never blocks them) after writes by any
// connection: every half second at most.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { WriteGeneration } from './write-generation.ts';

/** How often the main thread looks for writes to checkpoint (ms). */
const INTERVAL_MS = 500;
/**
 * The log's size at which the worker starts (SQLite's own threshold, 1,000 pages): a server that
 * writes little never needs it (its last connection to close checkpoints).
 */
const START_AT_BYTES = 4 * 1024 * 1024;

/** The worker's code (CommonJS, no file of its own: it runs as is from the sources and the bundle). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage('done');
});
`;

/**
 * Checkpoints the log of the database `file` from a worker thread, started once the log has grown
 * to 4 MB and stopped by `close`. A worker that fails (its connection cannot open, a checkpoint
 * throws) is not started again: the connections' own threshold keeps the log bounded.
 */
export class WalCheckpoints {
  private readonly timer: NodeJS.Timeout;
  private worker: Worker | undefined;
  private running = false;
  private seen: string;
  /** Closed, or the worker failed. */
  private stopped = false;

  constructor(
    /** Changes with any connection's write. */
    private readonly generation: WriteGeneration,
    private readonly file: string,
  ) {
    this.seen = generation.current();
    this.timer = setInterval(() => this.check(), INTERVAL_MS).unref();
  }

  /** Stops the worker (it closes its connection: the last one to close checkpoints all). */
  close(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.worker?.postMessage('close');
    this.worker = undefined;
  }

  /** Checkpoints if anything was written since the last look and none is running. */
  private check(): void {
    if (this.running || this.stopped) return;
    const changes = this.generation.current();
    if (changes === this.seen) return;
    if (this.worker === undefined && logSize(`${this.file}-wal`) < START_AT_BYTES) return;
    this.seen = changes;
    this.running = true;
    (this.worker ?? this.start()).postMessage('checkpoint');
  }

  private start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.file },
    });
    worker.unref();
    worker.on('message', () => {
      this.running = false;
    });
    worker.on('error', () => {
      this.stopped = true;
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.running = false;
    });
    this.worker = worker;
    return worker;
  }
}

function logSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
