// Checkpoints of the write-ahead log on a thread of their own. SQLite checkpoints in the connection
// that commits once the log passes 1,000 pages: here the server's main thread, which copies ~4 MB
// into the database and waits for its sync, 20 to 65 ms during which no request moves (measured
// under 8 uploading clients). The server's connections now checkpoint only past a far larger log
// (a safety net, see configureConnection), and a worker with its own connection runs a passive
// checkpoint (it never waits for readers or writers, never blocks them) after writes by any
// connection: every half second at most.
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { exited, startWorker, workerModule } from '../worker-module.ts';
import type { CheckpointMessage, CheckpointWorkerData } from './checkpoint-worker.ts';
import type { WriteGeneration } from './write-generation.ts';

/** How often the main thread looks for writes to checkpoint (ms). */
const INTERVAL_MS = 500;
/**
 * The log's size at which the worker starts (SQLite's own threshold, 1,000 pages): a server that
 * writes little never needs it (its last connection to close checkpoints).
 */
const START_AT_BYTES = 4 * 1024 * 1024;

const WORKER_URL = workerModule('checkpoint-worker', import.meta.url);

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

  /**
   * Stops the worker (it closes its connection: the last one to close checkpoints all); resolves
   * once it has ended.
   */
  close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const worker = this.worker;
    worker?.postMessage('close' satisfies CheckpointMessage);
    this.worker = undefined;
    return exited(worker);
  }

  /** Checkpoints if anything was written since the last look and none is running. */
  private check(): void {
    if (this.running || this.stopped) return;
    const changes = this.generation.current();
    if (changes === this.seen) return;
    if (this.worker === undefined && logSize(`${this.file}-wal`) < START_AT_BYTES) return;
    this.seen = changes;
    this.running = true;
    (this.worker ?? this.start()).postMessage('checkpoint' satisfies CheckpointMessage);
  }

  private start(): Worker {
    const worker = startWorker(WORKER_URL, {
      workerData: { file: this.file } satisfies CheckpointWorkerData,
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
