// Peak memory of the server process (VmHWM) when upload bodies of another shape than the
// contract's arrive: `content` nested, an array, a number, given twice, a huge unknown field. Each
// body is SIZE_MB (150 by default) streamed from a 1 MB buffer; PARALLEL (1 by default) at once.
// Prints one JSON line per case: the answer, its time, and the peak before and after.
//   npx tsx bench/upload-shapes.ts            SIZE_MB=150 PARALLEL=3 npx tsx bench/upload-shapes.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from '../server/test/support/spawned-server.ts';

const MB = 1024 * 1024;
const size = Number(process.env.SIZE_MB ?? 150) * MB;
const parallel = Number(process.env.PARALLEL ?? 1);

/** name → [what comes before the filler, the filler's character, what comes after]. */
const SHAPES: Record<string, [string, string, string]> = {
  'content nested in another field': ['{"ext":"html","x":{"content":"', 'A', '"}}'],
  'content as an array': ['{"ext":"html","content":["', 'A', '"]}'],
  'content as a number': ['{"ext":"html","content":1', '1', '}'],
  'content given twice': ['{"ext":"html","content":"PHA+PC9wPg==","content":"', 'A', '"}'],
  'a huge unknown field': ['{"ext":"html","notes":"', 'A', '"}'],
};

function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024);
}

/** POSTs the body; resolves with the answer (the server may close before all of it is sent). */
function post(url: string, token: string, [head, filler, tail]: [string, string, string]) {
  const started = performance.now();
  return new Promise<{ status: number; message: string; ms: number }>((resolve) => {
    const req = request(
      `${url}/public/api/v1/webpages`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const message = (JSON.parse(text) as { message?: string }).message ?? '';
          resolve({ status: res.statusCode ?? 0, message, ms: performance.now() - started });
        });
      },
    );
    req.on('error', () => undefined);
    const chunk = Buffer.alloc(MB, filler);
    let sent = 0;
    const pump = () => {
      if (sent === 0) req.write(head);
      while (sent < size && !req.destroyed) {
        const length = Math.min(MB, size - sent);
        sent += length;
        if (!req.write(length === MB ? chunk : chunk.subarray(0, length))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!req.destroyed) req.end(tail);
    };
    pump();
  });
}

for (const [name, shape] of Object.entries(SHAPES)) {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-shapes-'));
  const server = await spawnServer({ dataDir, token: 'bench' });
  try {
    const before = peakMb(server.pid);
    const answers = await Promise.all(
      Array.from({ length: parallel }, () => post(server.url, server.token, shape)),
    );
    const after = peakMb(server.pid);
    console.log(
      JSON.stringify({
        shape: name,
        sizeMb: size / MB,
        parallel,
        peakMbBefore: before,
        peakMbAfter: after,
        answers: answers.map((a) => `${a.status} ${a.message} (${Math.round(a.ms)} ms)`),
      }),
    );
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
