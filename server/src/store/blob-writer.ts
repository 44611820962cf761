// Writes a group of small files durably in one trip to a worker thread: each into a temp file of
// its folder, synced, renamed under its name, then each folder synced once. Done on the main
// thread's promise API, that is eight trips to the thread pool per file (open, write, sync, close,
// rename; open, sync, close of its folder), each waking a thread on a busy machine; here it is one
// message each way for the whole group. The worker's calls are synchronous: it does nothing else.
import { Worker } from 'node:worker_threads';

/** One file to write: `bytes` go to `temp` (a new file in `folder`), then `temp` becomes `target`. */
export interface BlobWrite {
  folder: string;
  temp: string;
  target: string;
  bytes: Uint8Array;
}

/** The worker's code (CommonJS, no file of its own: it runs as is from the sources and the bundle). */
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');

function message(error) {
  return error instanceof Error ? error.message : String(error);
}

function writeOne(file) {
  fs.mkdirSync(file.folder, { recursive: true, mode: 0o700 });
  const fd = fs.openSync(file.temp, 'wx', 0o600);
  try {
    let offset = 0;
    while (offset < file.bytes.length) {
      offset += fs.writeSync(fd, file.bytes, offset, file.bytes.length - offset);
    }
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(file.temp, file.target);
}

parentPort.on('message', ({ id, files }) => {
  const errors = files.map((file) => {
    try {
      writeOne(file);
      return undefined;
    } catch (error) {
      try {
        fs.rmSync(file.temp, { force: true });
      } catch {}
      return message(error);
    }
  });
  const folders = new Map();
  files.forEach((file, index) => {
    if (errors[index] !== undefined) return;
    folders.set(file.folder, [...(folders.get(file.folder) || []), index]);
  });
  for (const [folder, indexes] of folders) {
    try {
      const fd = fs.openSync(folder, 'r');
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      for (const index of indexes) errors[index] = message(error);
    }
  }
  parentPort.postMessage({ id, errors });
});
`;

/**
 * The buffers that can be moved to the worker rather than copied: those that the files' bytes fill
 * whole (a view of part of a buffer, as Node's small Buffers share one, is copied).
 */
function movable(files: readonly BlobWrite[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const { bytes } of files) {
    const { buffer } = bytes;
    if (
      buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === buffer.byteLength
    ) {
      buffers.add(buffer);
    }
  }
  return [...buffers];
}

interface Pending {
  resolve: (errors: (Error | undefined)[]) => void;
  reject: (error: Error) => void;
}

/**
 * A worker thread that writes groups of files (`writeMany`), started at the first group and kept
 * while the process runs (unreferenced while idle, so it never holds the process open).
 */
export class BlobWriter {
  private current: { worker: Worker; pending: Map<number, Pending> } | undefined;
  private nextId = 1;

  /**
   * Writes the files (their bytes are moved to the worker: empty afterwards); per file, undefined
   * once it is under its name and on disk with its folder, or the error that stopped it.
   */
  writeMany(files: readonly BlobWrite[]): Promise<(Error | undefined)[]> {
    return new Promise((resolve, reject) => {
      const { worker, pending } = this.current ?? this.start();
      const id = this.nextId++;
      pending.set(id, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage({ id, files }, movable(files));
      } catch (error) {
        pending.delete(id);
        if (pending.size === 0) worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Stops the worker; groups being written fail. */
  async close(): Promise<void> {
    const worker = this.current?.worker;
    this.current = undefined;
    await worker?.terminate();
  }

  private start(): { worker: Worker; pending: Map<number, Pending> } {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    const pending = new Map<number, Pending>();
    worker.on('message', ({ id, errors }: { id: number; errors: (string | undefined)[] }) => {
      const group = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) worker.unref();
      group?.resolve(errors.map((error) => (error === undefined ? undefined : new Error(error))));
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (this.current?.worker === worker) this.current = undefined;
      const error = new Error(
        `the file writer stopped (${failure?.message ?? `exit code ${String(code)}`})`,
      );
      for (const group of pending.values()) group.reject(error);
      pending.clear();
    });
    this.current = { worker, pending };
    return this.current;
  }
}
