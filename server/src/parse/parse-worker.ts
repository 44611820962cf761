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

// Garbage is collected after each parse: the file's bytes and its decoded parts (tens of MB,
// outside the heap) would otherwise stay until the next parses trigger a collection, since nothing
// else runs here. `gc` is not on this thread's global (`--expose-gc` is refused in a worker's
// execArgv); a context made after setting the flag has it, and it collects this thread's heap.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('typeof gc === "function" ? gc : undefined') as
  (() => void) | undefined;

port.on('message', (task: ParseTask) => {
  // The parse's time limit runs from here (not from when the pool sent it: a new worker loads the
  // parser first).
  port.postMessage({ id: task.id, status: 'started' } satisfies ParseReply);
  void run(task).then(({ reply, transfer }) => {
    port.postMessage(reply, transfer);
    collectGarbage?.();
  });
});

async function run(task: ParseTask): Promise<{ reply: ParseReply; transfer: ArrayBuffer[] }> {
  const { id, source, ext } = task;
  try {
    const bytes =
      source.kind === 'file' ? await readFile(source.path) : new Uint8Array(source.buffer);
    const parsed = parseWebpage(bytes, ext);
    // Bytes that came in are handed back (moved, not copied): the server stores them next.
    return source.kind === 'bytes'
      ? {
          reply: { id, status: 'parsed', parsed, buffer: source.buffer },
          transfer: [source.buffer],
        }
      : { reply: { id, status: 'parsed', parsed }, transfer: [] };
  } catch (error) {
    if (error instanceof ParseError) {
      return { reply: { id, status: 'invalid', reason: error.reason }, transfer: [] };
    }
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    return { reply: { id, status: 'failed', message, stack }, transfer: [] };
  }
}
