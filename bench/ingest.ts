// Ingest at scale: 8 clients upload small HTML pages at once, each on its own keep-alive
// connection, for a while; the figure is acknowledged uploads per second. Every answer is checked
// (200, success, the id of the bytes), so a lost or failed upload is never counted.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { log, percentile, type Report } from './report.ts';
import { RawHttpClient } from './raw-http-client.ts';
import type { ServerProcess } from './server-process.ts';

export const INGEST_CLIENTS = 8;

/** A small article (~3 kB), different for every `nonce`. */
export function smallPage(nonce: string): Buffer {
  const paragraphs = Array.from(
    { length: 8 },
    (_, i) =>
      `<p>Paragraph ${i} of page ${nonce}: archived pages are mostly text, a few links and a title; ` +
      `this one is small, as most pages saved from a browser extension are.</p>`,
  ).join('\n');
  return Buffer.from(
    `<!doctype html><html><head><meta charset="utf-8"><title>Ingest ${nonce}</title>` +
      `<link rel="canonical" href="https://ingest.example/${nonce}"></head>` +
      `<body><h1>Ingest ${nonce}</h1>${paragraphs}</body></html>`,
  );
}

/** The JSON body of an upload of `file` and the id the server must answer (sha256 hex). */
export function uploadBody(file: Buffer): { body: Buffer; id: string } {
  return {
    body: Buffer.from(JSON.stringify({ content: file.toString('base64'), ext: 'html' })),
    id: createHash('sha256').update(file).digest('hex'),
  };
}

export async function benchIngest(
  report: Report,
  server: ServerProcess,
  options: { quick: boolean },
): Promise<void> {
  const seconds = options.quick ? 4 : 10;
  // The same work first, so that the figures are the server's steady state: its functions
  // optimised by V8 (the compiler's threads would otherwise count), its statements prepared, the
  // parse pool's workers started.
  const warmSeconds = options.quick ? 4 : 6;
  // More than 8 clients can send in the time at 500/s; a client that runs out stops early.
  const perClient = options.quick ? 800 : 1_500;
  const run = `${process.pid}-${Date.now()}`;
  // Made first: building them takes the bench's CPU, which would show in the figure.
  const makeBodies = (phase: string) =>
    Array.from({ length: INGEST_CLIENTS }, (_, client) =>
      Array.from({ length: perClient }, (_, i) => {
        const nonce = `${run}-${phase}-${client}-${i}`;
        return { ...uploadBody(smallPage(nonce)), nonce };
      }),
    );
  const warmBodies = makeBodies('warm');
  const bodies = makeBodies('run');
  // Lean clients (raw-http-client.ts): the bench shares the server's cores.
  const clients = bodies.map(() => new RawHttpClient(server.origin, server.token));
  const latencies: number[] = [];
  let acknowledged = 0;
  /** The nonce of the last page acknowledged (searched for after the run). */
  let lastNonce = '';
  /** Each client uploads its bodies one after the other until the time is up. */
  const uploadFor = (phase: typeof bodies, until: number, acknowledge: (ms: number) => void) =>
    Promise.all(
      clients.map(async (client, c) => {
        for (const item of phase[c] ?? []) {
          if (performance.now() >= until) return;
          acknowledge(await upload(client, item));
          lastNonce = item.nonce;
        }
      }),
    );
  try {
    let warm = 0;
    await uploadFor(warmBodies, performance.now() + warmSeconds * 1000, () => warm++);
    log(`ingest: warm-up done (${warm} uploads); ${INGEST_CLIENTS} clients for ${seconds} s`);
    const cpuBefore = server.cpuMs();
    const mainBefore = server.mainThreadCpuMs();
    const threadsBefore = server.threadCpuMs();
    const benchBefore = process.cpuUsage();
    const started = performance.now();
    await uploadFor(bodies, started + seconds * 1000, (ms) => {
      latencies.push(ms);
      acknowledged++;
    });
    const elapsed = (performance.now() - started) / 1000;
    const cpu = server.cpuMs() - cpuBefore;
    const mainCpu = server.mainThreadCpuMs() - mainBefore;
    const threads = [...server.threadCpuMs()]
      .map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]);
    const benchUsage = process.cpuUsage(benchBefore);
    // The full-text index is written after the commits, by a thread of its own: a search waits
    // until it holds every page recorded before. The time until the last page is found, and the
    // server's CPU meanwhile (the index's backlog, which the figure per upload leaves out).
    const searchStarted = performance.now();
    const cpuBeforeSearch = server.cpuMs();
    const found = await searchFor(server, `"Ingest ${lastNonce}"`);
    const searchMs = performance.now() - searchStarted;
    const searchCpu = server.cpuMs() - cpuBeforeSearch;
    if (!found) throw new Error(`a search did not find the last page uploaded (${lastNonce})`);
    const benchCpu = (benchUsage.user + benchUsage.system) / 1000;
    const perUpload = (ms: number) => (acknowledged === 0 ? Number.NaN : ms / acknowledged);
    report.add({
      name: 'server.ingest.uploads-per-s',
      value: acknowledged / elapsed,
      unit: 'uploads/s',
      n: acknowledged,
      note: `${INGEST_CLIENTS} clients, ~${(bodies[0]?.[0]?.body.length ?? 0) / 1000} kB bodies, ${elapsed.toFixed(1)} s`,
    });
    report.add({
      name: 'server.ingest.latency.p50',
      value: percentile(latencies, 50),
      unit: 'ms',
      n: latencies.length,
    });
    report.add({
      name: 'server.ingest.latency.p95',
      value: percentile(latencies, 95),
      unit: 'ms',
      n: latencies.length,
    });
    report.add({
      name: 'server.ingest.cpu',
      value: perUpload(cpu),
      unit: 'ms/upload',
      note: "the server's CPU time per acknowledged upload (moves less with the load)",
    });
    report.add({
      name: 'server.ingest.cpu.main-thread',
      value: perUpload(mainCpu),
      unit: 'ms/upload',
      note: 'of which its main thread (every request goes through it: 1000 / this bounds uploads/s)',
    });
    report.add({
      name: 'server.ingest.cpu.threads',
      value: threads.length,
      unit: 'threads',
      note: threads
        .map(([name, ms]) => `${name} ${perUpload(ms).toFixed(2)}`)
        .join(', ')
        .concat(' ms/upload'),
    });
    report.add({
      name: 'server.ingest.search-caught-up',
      value: searchMs,
      unit: 'ms',
      note: `a search for the last page uploaded, answered once the full-text index holds it (${searchCpu.toFixed(0)} ms of the server's CPU meanwhile)`,
    });
    report.add({
      name: 'bench.ingest.clients-cpu',
      value: perUpload(benchCpu),
      unit: 'ms/upload',
      note: "the bench's own 8 clients (this process), on the same cores as the server",
    });
  } finally {
    for (const client of clients) client.close();
  }
}

/** Whether a search for `q` (a phrase) finds a page whose title holds it. */
async function searchFor(server: ServerProcess, q: string): Promise<boolean> {
  const response = await fetch(
    `${server.origin}/public/api/v1/search/webpages?${new URLSearchParams({ q })}`,
    { headers: { authorization: `Bearer ${server.token}` } },
  );
  if (!response.ok) throw new Error(`a search failed: ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: { webpages: unknown[] } };
  return data.webpages.length > 0;
}

async function upload(client: RawHttpClient, item: { body: Buffer; id: string }): Promise<number> {
  const result = await client.post('/webpages', item.body);
  const parsed = JSON.parse(result.body.toString('utf8')) as {
    success?: boolean;
    data?: { id?: string };
  };
  if (result.status !== 200 || parsed.success !== true || parsed.data?.id !== item.id) {
    throw new Error(`an upload failed: ${result.status} ${result.body.toString().slice(0, 300)}`);
  }
  return result.ms;
}
