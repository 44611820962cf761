// The worker thread of the parse pool (parse-pool.ts): parses one uploaded file at a time, off the
// server's main thread. A file on disk is read here, so the main thread never holds its bytes.
import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { ParseReply, ParseTask } from './parse-pool.ts';
import { ParseError } from './parse-error.ts';
import { parseWebpage } from './parse-webpage.ts';

const port = parentPort;
if (port === null) throw new Error('parse-worker runs in a worker thread of the parse pool');

// Garbage is collected once the files parsed since the last collection add up to
// COLLECT_AFTER_BYTES: their bytes and decoded parts (tens of MB for a large MHTML, outside the
// heap) would otherwise stay until the next parses trigger a collection, since nothing else runs
// here. A full collection costs milliseconds: after every small page it was most of the worker's
// time (8 clients uploading 2 kB pages: 67 % of the worker's CPU in the collector). `gc` is not on
// this thread's global (`--expose-gc` is refused in a worker's execArgv); a context made after
// setting the flag has it, and it collects this thread's heap.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('typeof gc === "function" ? gc : undefined') as
  (() => void) | undefined;
/** Bytes parsed between two forced collections (a large file gets one right after it). */
const COLLECT_AFTER_BYTES = 4 * 1024 * 1024;
let parsedSinceCollection = 0;

/** Whether this worker has said it started a task (see below). */
let said = false;

port.on('message', (task: ParseTask) => {
  // The parse's time limit runs from here (not from when the pool sent it: a new worker loads the
  // parser first). Said once: the pool then knows the parser is loaded, and counts the time of the
  // next tasks from when it hands them over (they start at once: one at a time).
  if (!said) {
    said = true;
    port.postMessage({ id: task.id, status: 'started' } satisfies ParseReply);
  }
  void run(task).then(({ reply, transfer, bytes }) => {
    port.postMessage(reply, transfer);
    parsedSinceCollection += bytes;
    if (parsedSinceCollection >= COLLECT_AFTER_BYTES) {
      parsedSinceCollection = 0;
      collectGarbage?.();
    }
  });
});

interface Outcome {
  reply: ParseReply;
  transfer: ArrayBuffer[];
  /** The size of the file parsed (0 when it could not be read). */
  bytes: number;
}

async function run(task: ParseTask): Promise<Outcome> {
  const { id, source, ext } = task;
  let size = source.kind === 'bytes' ? source.buffer.byteLength : 0;
  try {
    const bytes =
      source.kind === 'file' ? await readFile(source.path) : new Uint8Array(source.buffer);
    size = bytes.byteLength;
    const parsed = parseWebpage(bytes, ext);
    // Bytes that came in are handed back (moved, not copied): the server stores them next.
    return source.kind === 'bytes'
      ? {
          reply: { id, status: 'parsed', parsed, buffer: source.buffer },
          transfer: [source.buffer],
          bytes: size,
        }
      : { reply: { id, status: 'parsed', parsed }, transfer: [], bytes: size };
  } catch (error) {
    if (error instanceof ParseError) {
      return { reply: { id, status: 'invalid', reason: error.reason }, transfer: [], bytes: size };
    }
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    return { reply: { id, status: 'failed', message, stack }, transfer: [], bytes: size };
  }
}
