// Parses uploaded files in worker threads (parse-worker.ts), so that a 20 MB MHTML (70 to 120 ms of
// CPU) does not hold up every other request. A few workers at most, one parse each at a time, the
// others wait in a queue. Workers start on demand and stop after a while without work: an idle
// worker would otherwise keep its heap in the server's memory. Each parse has a time limit (counted
// from when its worker starts it) and each worker a heap limit: a file that needs more is too
// complex to read (ParseLimitError), and only its own worker is stopped.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker, workerModule } from '../worker-module.ts';
import { ParseError } from './parse-error.ts';
import type { ParsedWebpage, WebpageExt } from './parse-webpage.ts';

/** What a worker parses: a file it reads itself, or bytes moved to it (and moved back). */
export type ParseSource = { kind: 'file'; path: string } | { kind: 'bytes'; buffer: ArrayBuffer };

/** A message to a worker. */
export interface ParseTask {
  id: number;
  ext: WebpageExt;
  source: ParseSource;
}

/** A worker's answer to a task. */
export type ParseReply =
  /** The worker took the task: its time limit runs from now. */
  | { id: number; status: 'started' }
  | { id: number; status: 'parsed'; parsed: ParsedWebpage; buffer?: ArrayBuffer }
  /** The bytes are not a file of that kind (a ParseError in the worker). */
  | { id: number; status: 'invalid'; reason: string }
  /** Anything else the parse threw (a bug, an unreadable file). */
  | { id: number; status: 'failed'; message: string; stack?: string };

/** A parse that did not finish: its worker crashed, ran out of memory, hung, or was stopped. */
export class ParseWorkerError extends Error {
  override name = 'ParseWorkerError';
}

/** A parse that went past its limits (time, heap): the file is too complex to read. */
export class ParseLimitError extends ParseWorkerError {
  override name = 'ParseLimitError';
}

/** Options of one parse. */
export interface ParseOptions {
  /** Its time limit (ms), instead of the pool's. */
  timeoutMs?: number;
}

export interface ParsePoolOptions {
  /** At most this many workers; one fewer than the cores, 1 or 2. */
  maxWorkers?: number;
  /** A worker without work for this long stops (ms). */
  idleTimeoutMs?: number;
  /**
   * A parse running this long (from when its worker starts it) is stopped and fails with a
   * ParseLimitError (ms); DEFAULT_PARSE_TIMEOUT_MS by default. A parse can set its own.
   */
  taskTimeoutMs?: number;
  /** The worker's module; parse-worker beside this module by default. */
  workerUrl?: URL;
  /** Each worker's heap limits: running out fails its parse, not the server. */
  resourceLimits?: ResourceLimits;
}

export const DEFAULT_MAX_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** The time limit of a parse (FOLIO_PARSE_TIMEOUT_S): far above what a real page needs. */
export const DEFAULT_PARSE_TIMEOUT_MS = 30_000;
/**
 * How long a worker may take to start a parse it was given (a new worker loads the parser first)
 * before it is taken as stuck, on top of the parse's own time limit.
 */
const START_TIMEOUT_MS = 10_000;
/** Far above what a parse needs (the files' bytes live outside the heap; the text is capped). */
const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256 };

/**
 * The worker's module: parse-worker.ts beside this file when the server runs from its sources
 * (tsx, Vitest), parse-worker.js beside the bundle (server/dist/main.js, see server/build.ts).
 */
const DEFAULT_WORKER_URL = workerModule('parse-worker', import.meta.url);

type Parsed = Extract<ParseReply, { status: 'parsed' }>;

interface Job {
  task: ParseTask;
  timeoutMs: number;
  transfer: ArrayBuffer[];
  resolve: (reply: Parsed) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Being stopped (idle, hung, or the pool stops): it takes no more jobs. */
  stopping: boolean;
  /** The parse's time limit while busy, the idle timeout otherwise. */
  timer: NodeJS.Timeout | undefined;
  /** The worker said it started its job (its time limit runs). */
  started: boolean;
  /**
   * The worker has loaded the parser (it said it started a job once): it starts the next ones as
   * they arrive, and says so no more (one message less per parse).
   */
  warm: boolean;
  /** What the worker died of (its `error` event comes before `exit`). */
  error: Error | undefined;
  exited: Promise<void>;
}

export class ParsePool {
  private readonly maxWorkers: number;
  private readonly idleTimeoutMs: number;
  private readonly taskTimeoutMs: number;
  private readonly workerUrl: URL;
  private readonly resourceLimits: ResourceLimits;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private users = 0;

  constructor(options: ParsePoolOptions = {}) {
    this.maxWorkers = Math.max(1, options.maxWorkers ?? DEFAULT_MAX_WORKERS);
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
    this.workerUrl = options.workerUrl ?? DEFAULT_WORKER_URL;
    this.resourceLimits = options.resourceLimits ?? DEFAULT_RESOURCE_LIMITS;
  }

  /** Workers alive (busy, idle or stopping). */
  get size(): number {
    return this.slots.size;
  }

  /** Parses running in a worker. */
  get busy(): number {
    let busy = 0;
    for (const slot of this.slots) if (slot.job !== undefined) busy++;
    return busy;
  }

  /** Parses waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Parses a file on disk; the worker reads it. Rejects with ParseError for an invalid file, with
   * ParseLimitError for one that takes too long or too much memory.
   */
  async parseFile(
    path: string,
    ext: WebpageExt,
    options: ParseOptions = {},
  ): Promise<ParsedWebpage> {
    return (await this.submit(ext, { kind: 'file', path }, [], options)).parsed;
  }

  /**
   * Parses an uploaded file staged on disk (a path: read by this thread and moved, not copied, to
   * the worker) or held in memory (bytes: copied to the worker, the caller keeps them). Memory that
   * the main thread allocates goes back to the heap it shares with the rest of the server; a 20 MB
   * read by the worker would stay in a malloc arena of the worker's own (measured: 30 to 60 MB
   * more RSS after a few uploads).
   */
  async parseStaged(
    staged: string | Uint8Array,
    ext: WebpageExt,
    options: ParseOptions = {},
  ): Promise<ParsedWebpage> {
    const bytes = typeof staged === 'string' ? await readFile(staged) : new Uint8Array(staged);
    return (await this.parseBytes(bytes, ext, options)).parsed;
  }

  /**
   * Parses bytes, which are moved to the worker and back, not copied: `bytes` is empty afterwards,
   * use the returned ones. Rejects with ParseError for an invalid file.
   */
  async parseBytes(
    bytes: Uint8Array,
    ext: WebpageExt,
    options: ParseOptions = {},
  ): Promise<{ parsed: ParsedWebpage; bytes: Uint8Array }> {
    // A view of part of a buffer (Node's small Buffers share one) is copied: moving its buffer
    // would take the other views' bytes with it.
    const whole =
      bytes.buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength;
    const buffer = whole ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
    const reply = await this.submit(ext, { kind: 'bytes', buffer }, [buffer], options);
    if (reply.buffer === undefined) throw new Error('the parse worker did not return the bytes');
    return { parsed: reply.parsed, bytes: new Uint8Array(reply.buffer) };
  }

  /** An app starts using the pool (see `release`). */
  retain(): void {
    this.users++;
  }

  /** An app is done with the pool: when no app uses it any more, its workers stop. */
  async release(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users === 0) await this.stopWorkers();
  }

  /**
   * Stops every worker now; the parses running or waiting fail. Later parses start new workers.
   */
  async stopWorkers(): Promise<void> {
    const error = new ParseWorkerError('the parser was stopped (the server is shutting down)');
    for (const job of this.queue.splice(0)) job.reject(error);
    const slots = [...this.slots];
    for (const slot of slots) this.stop(slot, error);
    await Promise.all(slots.map((slot) => slot.exited));
  }

  private submit(
    ext: WebpageExt,
    source: ParseSource,
    transfer: ArrayBuffer[],
    options: ParseOptions,
  ): Promise<Parsed> {
    const timeoutMs = options.timeoutMs ?? this.taskTimeoutMs;
    return new Promise((resolve, reject) => {
      const task = { id: this.nextId++, ext, source };
      this.queue.push({ task, timeoutMs, transfer, resolve, reject });
      this.pump();
    });
  }

  /** Hands waiting jobs to idle workers, starting workers up to the limit. */
  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((each) => each.job === undefined && !each.stopping);
      if (slot === undefined) {
        if (this.slots.size >= this.maxWorkers) return;
        try {
          slot = this.start();
        } catch (error) {
          this.queue
            .shift()
            ?.reject(new ParseWorkerError('the parser could not start', { cause: error }));
          continue;
        }
      }
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private start(): Slot {
    const worker = startWorker(this.workerUrl, { resourceLimits: this.resourceLimits });
    let exited!: () => void;
    const slot: Slot = {
      worker,
      job: undefined,
      stopping: false,
      timer: undefined,
      started: false,
      warm: false,
      error: undefined,
      exited: new Promise((resolve) => (exited = resolve)),
    };
    this.slots.add(slot);
    worker.on('message', (reply: ParseReply) => this.onReply(slot, reply));
    worker.on('messageerror', () =>
      this.stop(slot, new ParseWorkerError('the parser gave an answer that could not be read')),
    );
    worker.on('error', (error) => (slot.error = error));
    worker.on('exit', (code) => {
      this.slots.delete(slot);
      clearTimeout(slot.timer);
      const job = slot.job;
      slot.job = undefined;
      job?.reject(crashError(slot.error, code));
      exited();
      // A replacement takes the waiting parses.
      this.pump();
    });
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.started = false;
    slot.worker.ref();
    if (slot.warm) {
      // An idle worker that has loaded the parser starts the job as it arrives.
      this.armParse(slot, job);
    } else {
      // Until the worker says it started (a new one loads the parser first).
      this.arm(slot, job.timeoutMs + START_TIMEOUT_MS, () => {
        const seconds = Math.round((job.timeoutMs + START_TIMEOUT_MS) / 1000);
        return new ParseWorkerError(`the parser did not start in ${seconds} s and was stopped`);
      });
    }
    try {
      slot.worker.postMessage(job.task, job.transfer);
    } catch (error) {
      clearTimeout(slot.timer);
      slot.job = undefined;
      job.reject(error);
      this.idle(slot);
    }
  }

  /** The job's own time limit runs (its worker started it). */
  private armParse(slot: Slot, job: Job): void {
    slot.started = true;
    this.arm(slot, job.timeoutMs, () => {
      const seconds = Math.round(job.timeoutMs / 100) / 10;
      return new ParseLimitError(`the parser took longer than ${seconds} s and was stopped`);
    });
  }

  /** Stops the worker of `slot` with `error()` in `ms`, unless its job ends before. */
  private arm(slot: Slot, ms: number, error: () => ParseWorkerError): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.stop(slot, error()), ms);
    slot.timer.unref();
  }

  private onReply(slot: Slot, reply: ParseReply): void {
    const job = slot.job;
    if (job === undefined || reply.id !== job.task.id) return;
    if (reply.status === 'started') {
      slot.warm = true;
      if (!slot.started) this.armParse(slot, job);
      return;
    }
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (reply.status === 'parsed') {
      job.resolve(reply);
    } else if (reply.status === 'invalid') {
      job.reject(new ParseError(reply.reason));
    } else {
      const failure = new Error(reply.message);
      if (reply.stack !== undefined) failure.stack = reply.stack;
      job.reject(failure);
    }
    if (this.queue.length > 0) this.pump();
    else this.idle(slot);
  }

  /** Lets the process exit without waiting for the worker, which stops after the idle timeout. */
  private idle(slot: Slot): void {
    slot.worker.unref();
    slot.timer = setTimeout(() => this.stop(slot), this.idleTimeoutMs);
    slot.timer.unref();
  }

  /** Terminates a worker; its parse, if any, fails with `error`. */
  private stop(slot: Slot, error?: ParseWorkerError): void {
    if (slot.stopping) return;
    slot.stopping = true;
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) job.reject(error ?? new ParseWorkerError('the parser was stopped'));
    void slot.worker.terminate();
  }
}

/** What a parse whose worker exited fails with: running out of heap is the file's doing. */
function crashError(error: Error | undefined, code: number): ParseWorkerError {
  if ((error as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new ParseLimitError('the parser ran out of memory', { cause: error });
  }
  const reason = error === undefined ? `exit code ${code}` : error.message;
  return new ParseWorkerError(`the parser stopped unexpectedly (${reason})`, { cause: error });
}

/** The process's pool: each app retains it while open (app.ts), uploads parse with it. */
export const parsePool = new ParsePool();
