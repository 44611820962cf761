// Writes small files durably in one trip to a worker thread: each into a temp file of its folder,
// synced, renamed under its name, then each folder synced once. Done on the main thread's promise
// API, that is eight trips to the thread pool per file (open, write, sync, close, rename; open,
// sync, close of its folder), each waking a thread on a busy machine; here it is one message each
// way (the worker makes the calls, two trips to the pool per file: the syncs).
import { Worker } from 'node:worker_threads';
import { movable, WorkerRequests } from '../worker-module.ts';

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
const { promisify } = require('node:util');
const { parentPort } = require('node:worker_threads');

const fsync = promisify(fs.fsync);

function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/** Folders made or seen by this worker: no mkdir for each file. */
const folders = new Set();

// A file is opened, written, synced and closed with one trip to the thread pool, for the sync: the
// other calls take microseconds (the bytes go to the page cache), and this thread has nothing else
// to do meanwhile. Each trip wakes this thread, which a busy machine delays.
async function writeSynced(path, bytes, flags, mode) {
  const fd = fs.openSync(path, flags, mode);
  try {
    if (bytes !== undefined) fs.writeFileSync(fd, bytes);
    await fsync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function writeOne(file, again = false) {
  if (!folders.has(file.folder)) {
    fs.mkdirSync(file.folder, { recursive: true, mode: 0o700 });
    folders.add(file.folder);
  }
  try {
    await writeSynced(file.temp, file.bytes, 'wx', 0o600);
    fs.renameSync(file.temp, file.target);
  } catch (error) {
    if (error.code === 'ENOENT' && !again) {
      // The folder went away under this process: made again, once.
      folders.delete(file.folder);
      return writeOne(file, true);
    }
    try {
      fs.rmSync(file.temp, { force: true });
    } catch {
      // No temp file to remove (its folder could not be made); one left is removed at start.
    }
    throw error;
  }
}

// The files of a group at once (their syncs overlap, as the disk can take them together), then
// each folder that received one, synced once.
async function writeGroup(files) {
  const errors = await Promise.all(
    files.map((file) => writeOne(file).then(() => undefined, message)),
  );
  const synced = new Map();
  files.forEach((file, index) => {
    if (errors[index] !== undefined) return;
    synced.set(file.folder, [...(synced.get(file.folder) || []), index]);
  });
  await Promise.all(
    [...synced].map(([folder, indexes]) =>
      writeSynced(folder, undefined, 'r').catch((error) => {
        for (const index of indexes) errors[index] = message(error);
      }),
    ),
  );
  return errors;
}

parentPort.on('message', ({ id, files }) => {
  void writeGroup(files).then((errors) => parentPort.postMessage({ id, errors }));
});
`;

/**
 * A worker thread that writes groups of files (`writeMany`), started at the first group and kept
 * while the process runs (unreferenced while idle, so it never holds the process open).
 */
export class BlobWriter {
  private readonly requests = new WorkerRequests<(Error | undefined)[]>(
    'the file writer',
    () => new Worker(WORKER_SOURCE, { eval: true }),
    (message) => {
      const { id, errors } = message as { id: number; errors: (string | undefined)[] };
      const value = errors.map((error) => (error === undefined ? undefined : new Error(error)));
      return { id, outcome: { ok: true, value } };
    },
  );

  /**
   * Writes the files (their bytes are moved to the worker: empty afterwards); per file, undefined
   * once it is under its name and on disk with its folder, or the error that stopped it.
   */
  writeMany(files: readonly BlobWrite[]): Promise<(Error | undefined)[]> {
    return this.requests.request((id) => ({ id, files }), movable(files.map((file) => file.bytes)));
  }

  /** Stops the worker; groups being written fail. */
  async close(): Promise<void> {
    const worker = this.requests.release();
    // The process waits for it to end (it is unreferenced while idle).
    worker?.ref();
    await worker?.terminate();
  }
}
