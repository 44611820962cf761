// Server figures over real HTTP against the server process on the seeded archive: list and view
// latencies, a 20 MB upload, a 20 MB content read and the process's memory.
import { performance } from 'node:perf_hooks';
import { makeLargeMhtml, MB } from './fixtures.ts';
import { log, percentile, type Report } from './report.ts';
import type { SeedInfo } from './seed.ts';
import { HttpClient, type ServerProcess } from './server-process.ts';

export interface ServerBenchOptions {
  quick: boolean;
}

interface Sampling {
  warmup: number;
  requests: number;
  /** Stop early after this long when at least `minRequests` are in (slow scenarios). */
  maxSeconds: number;
  minRequests: number;
}

const LIST_SAMPLING: Sampling = { warmup: 20, requests: 200, maxSeconds: 20, minRequests: 50 };
const VIEW_SAMPLING: Sampling = { warmup: 3, requests: 200, maxSeconds: 12, minRequests: 20 };
const QUICK_LIST: Sampling = { warmup: 5, requests: 50, maxSeconds: 5, minRequests: 20 };
const QUICK_VIEW: Sampling = { warmup: 1, requests: 30, maxSeconds: 3, minRequests: 5 };

/** Requests `path` repeatedly and reports p50 and p95 of the time to the last byte. */
async function latency(
  report: Report,
  client: HttpClient,
  server: ServerProcess,
  name: string,
  path: string,
  sampling: Sampling,
): Promise<{ bytes: number; body: Buffer }> {
  let last: Buffer = Buffer.alloc(0);
  for (let i = 0; i < sampling.warmup; i++) {
    const result = await client.api('GET', path);
    if (result.status !== 200) {
      throw new Error(`${path} answered ${result.status}: ${result.body.toString().slice(0, 200)}`);
    }
    last = result.body;
    // The first request of a query: nothing kept for it yet (deep list pages are sliced from
    // ids kept until the next write, so the repeated requests below measure the kept path).
    if (i === 0) {
      report.add({
        name: `${name}.first`,
        value: result.ms,
        unit: 'ms',
        note: 'the first request (cold)',
      });
    }
  }
  const samples: number[] = [];
  const started = performance.now();
  const cpuBefore = server.cpuMs();
  while (samples.length < sampling.requests) {
    const result = await client.api('GET', path);
    if (result.status !== 200) throw new Error(`${path} answered ${result.status}`);
    samples.push(result.ms);
    last = result.body;
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed > sampling.maxSeconds && samples.length >= sampling.minRequests) break;
  }
  const cpu = (server.cpuMs() - cpuBefore) / samples.length;
  report.add({
    name: `${name}.p50`,
    value: percentile(samples, 50),
    unit: 'ms',
    n: samples.length,
  });
  report.add({
    name: `${name}.p95`,
    value: percentile(samples, 95),
    unit: 'ms',
    n: samples.length,
  });
  report.add({
    name: `${name}.cpu`,
    value: cpu,
    unit: 'ms/req',
    note: 'server CPU time per request (less sensitive to other load)',
  });
  return { bytes: last.length, body: last };
}

function query(params: [string, string | number][]): string {
  const search = new URLSearchParams(params.map(([key, value]) => [key, String(value)]));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function pick<T>(values: readonly T[], index: number, what: string): T {
  const value = values[index] ?? values[values.length - 1];
  if (value === undefined) throw new Error(`the seed has no ${what}`);
  return value;
}

export async function benchList(
  report: Report,
  client: HttpClient,
  server: ServerProcess,
  seed: SeedInfo,
  options: ServerBenchOptions,
): Promise<void> {
  const sampling = options.quick ? QUICK_LIST : LIST_SAMPLING;
  const host = (rank: number) => pick(seed.hosts, rank, 'host').host;
  const label = (rank: number) => pick(seed.labels, rank, 'label').label;
  const scenarios: [string, [string, string | number][]][] = [
    ['default', []],
    [
      'title-page500',
      [
        ['sort', 'title_asc'],
        ['page', 500],
      ],
    ],
    [
      'read-ext2-label-title-page500',
      [
        ['read', 'false'],
        ['ext', 'html'],
        ['ext', 'mhtml'],
        ['labels', label(0)],
        ['sort', 'title_asc'],
        ['page', 500],
      ],
    ],
    [
      'host3-liked-annotated-titledesc-page500',
      [
        ['host', host(0)],
        ['host', host(1)],
        ['host', host(2)],
        ['liked', 'false'],
        ['annotated', 'false'],
        ['sort', 'title_desc'],
        ['page', 500],
      ],
    ],
    [
      'labels2-read-annotations-page500',
      [
        ['labels', label(1)],
        ['labels', label(2)],
        ['read', 'true'],
        ['sort', 'annotate_count_desc'],
        ['page', 500],
      ],
    ],
    [
      'unread-oldest-page500',
      [
        ['read', 'false'],
        ['sort', 'first_add_time_asc'],
        ['page', 500],
      ],
    ],
  ];
  let newest: string | undefined;
  for (const [name, params] of scenarios) {
    log(`list ${name}`);
    const { body } = await latency(
      report,
      client,
      server,
      `server.list.${name}`,
      `/webpages${query(params)}`,
      sampling,
    );
    const rows = (JSON.parse(body.toString('utf8')) as { data: { webpages: { id: string }[] } })
      .data.webpages;
    if (name === 'default') {
      newest = rows[0]?.id;
      if (newest === undefined) throw new Error('the default list is empty');
    }
  }
  // The same deep pages when each follows a write (a page marked read or unread, not timed):
  // nothing kept from the requests before, as after any change to the archive.
  for (const [name, params] of scenarios.filter(([name]) => name.endsWith('page500'))) {
    log(`list ${name} after a write`);
    const samples: number[] = [];
    for (let i = 0; i < (options.quick ? 5 : 30); i++) {
      await client.data('PATCH', `/webpages/${newest}`, { read: i % 2 === 0 });
      const result = await client.api('GET', `/webpages${query(params)}`);
      if (result.status !== 200) throw new Error(`the list answered ${result.status}`);
      samples.push(result.ms);
    }
    for (const p of [50, 95]) {
      report.add({
        name: `server.list.${name}.after-write.p${p}`,
        value: percentile(samples, p),
        unit: 'ms',
        n: samples.length,
      });
    }
  }
  // Folio's facets (hosts and labels with counts, for the filter menus), kept by triggers.
  log('facets');
  await latency(
    report,
    client,
    server,
    'server.facets',
    '/facets',
    options.quick ? QUICK_VIEW : VIEW_SAMPLING,
  );
}

type Filter = Record<string, unknown>;

/** The view scenarios: 1, 3 and 8 filters covering every filter key, both match modes. */
function viewScenarios(seed: SeedInfo): [string, Filter[], 'and' | 'or'][] {
  const hosts = (from: number, to: number) => seed.hosts.slice(from, to).map((entry) => entry.host);
  const labels = (from: number, to: number) =>
    seed.labels.slice(from, to).map((entry) => entry.label);
  const one: Filter[] = [{ type: 2, key: 'host', operator: true, rightOperand: hosts(1, 3) }];
  const three: Filter[] = [
    { type: 2, key: 'label', operator: 1, rightOperand: labels(5, 7) },
    { type: 0, key: 'liked', operator: true },
    { type: 1, key: 'first-add-time', operator: 1, rightOperand: 5 },
  ];
  // Every filter key once; positive operands so that "or" is a union of selective filters
  // (a negated filter alone matches almost every page).
  const eight: Filter[] = [
    { type: 2, key: 'host', operator: true, rightOperand: hosts(20, 30) },
    { type: 2, key: 'label', operator: 1, rightOperand: labels(20, 25) },
    { type: 1, key: 'annotation', operator: 2, rightOperand: 2 },
    { type: 1, key: 'first-add-time', operator: 1, rightOperand: 4 },
    { type: 0, key: 'liked', operator: true },
    { type: 0, key: 'read-status', operator: true },
    { type: 0, key: 'link-duplicate', operator: true },
    { type: 0, key: 'title-duplicate', operator: true },
  ];
  return [
    ['f1-host.and', one, 'and'],
    ['f1-host.or', one, 'or'],
    ['f1-title-duplicate.and', [{ type: 0, key: 'title-duplicate', operator: true }], 'and'],
    ['f1-link-duplicate.and', [{ type: 0, key: 'link-duplicate', operator: true }], 'and'],
    ['f3.and', three, 'and'],
    ['f3.or', three, 'or'],
    ['f8.and', eight, 'and'],
    ['f8.or', eight, 'or'],
  ];
}

export async function benchViews(
  report: Report,
  client: HttpClient,
  server: ServerProcess,
  seed: SeedInfo,
  options: ServerBenchOptions,
): Promise<void> {
  const sampling = options.quick ? QUICK_VIEW : VIEW_SAMPLING;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.memory().rss);
  }, 25);
  try {
    await viewLatencies(report, client, server, seed, sampling);
  } finally {
    clearInterval(sampler);
  }
  report.add({
    name: 'server.view.rss-sampled-peak',
    value: peak,
    unit: 'MB',
    note: 'VmRSS sampled every 25 ms during the view scenarios',
  });
}

async function viewLatencies(
  report: Report,
  client: HttpClient,
  server: ServerProcess,
  seed: SeedInfo,
  sampling: Sampling,
): Promise<void> {
  for (const [name, filters, match] of viewScenarios(seed)) {
    log(`view ${name}`);
    const view = await client.data<{ id: string }>('POST', '/views', {
      title: `bench ${name}`,
      filters,
      match,
    });
    const { body } = await latency(
      report,
      client,
      server,
      `server.view.${name}`,
      `/views/${view.id}/webpages`,
      sampling,
    );
    const rows = (JSON.parse(body.toString('utf8')) as { data: { webpages: unknown[] } }).data
      .webpages.length;
    report.add({
      name: `server.view.${name}.rows`,
      value: rows,
      unit: 'rows',
      note: `${(body.length / MB).toFixed(1)} MB answer`,
    });
    // What the app asks for: the first page (Folio's paging extension, as the view page loads it).
    await latency(
      report,
      client,
      server,
      `server.view.${name}.first-page`,
      `/views/${view.id}/webpages?page=1&per_page=200`,
      sampling,
    );
    await client.data('DELETE', `/views/${view.id}`);
  }
}

/** Uploads distinct 20 MB MHTML files one after the other, then reads one back. */
export async function benchUploadAndContent(
  report: Report,
  client: HttpClient,
  server: ServerProcess,
  options: ServerBenchOptions,
): Promise<void> {
  const uploads = options.quick ? 2 : 5;
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  let lastId: string | undefined;
  let fileBytes = 0;
  // Made first: building them takes the bench's CPU, which would show in the timings.
  const files = Array.from({ length: uploads }, (_, i) => {
    const file = makeLargeMhtml(20 * MB, `upload-${process.pid}-${Date.now()}-${i}`);
    const body = Buffer.from(JSON.stringify({ content: file.toString('base64'), ext: 'mhtml' }));
    return { file, body };
  });
  let peakDuringUploads = 0;
  // Meanwhile, someone browses: list requests on another connection show how long the uploads
  // keep the server from answering.
  let uploading = true;
  const listDuring: number[] = [];
  const browsing = (async () => {
    const side = new HttpClient(server.origin, server.token);
    try {
      while (uploading) {
        const result = await side.api('GET', '/webpages');
        listDuring.push(result.ms);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      side.close();
    }
  })();
  try {
    await uploadAll();
  } finally {
    uploading = false;
    await browsing.catch(() => undefined);
  }

  async function uploadAll(): Promise<void> {
    for (const [i, { file, body }] of files.entries()) {
      fileBytes = file.length;
      const sampler = setInterval(() => {
        peakDuringUploads = Math.max(peakDuringUploads, server.memory().rss);
      }, 25);
      let result;
      const cpuBefore = server.cpuMs();
      try {
        result = await client.api('POST', '/webpages', body);
      } finally {
        clearInterval(sampler);
      }
      const parsed = JSON.parse(result.body.toString('utf8')) as {
        success?: boolean;
        data?: { id: string; size: number };
      };
      if (result.status !== 200 || parsed.success !== true || parsed.data?.size !== file.length) {
        throw new Error(
          `the 20 MB upload failed: ${result.status} ${result.body.toString().slice(0, 300)}`,
        );
      }
      lastId = parsed.data.id;
      samples.push(result.ms);
      cpuSamples.push(server.cpuMs() - cpuBefore);
      log(`upload ${i + 1}/${uploads}: ${Math.round(result.ms)} ms`);
    }
  }
  const sizeNote = `${(fileBytes / MB).toFixed(1)} MiB MHTML, 6 noise PNGs`;
  report.add({
    name: 'server.upload.20mb.p50',
    value: percentile(samples, 50),
    unit: 'ms',
    n: samples.length,
    note: sizeNote,
  });
  report.add({
    name: 'server.upload.20mb.max',
    value: Math.max(...samples),
    unit: 'ms',
    n: samples.length,
  });
  report.add({
    name: 'server.upload.20mb.cpu',
    value: percentile(cpuSamples, 50),
    unit: 'ms/req',
    note: 'server CPU time per upload, median',
  });
  report.add({
    name: 'server.upload.20mb.throughput',
    value: fileBytes / MB / (percentile(samples, 50) / 1000),
    unit: 'MiB/s',
    note: 'file bytes per second at p50',
  });
  report.add({
    name: 'server.upload.list-meanwhile.p95',
    value: percentile(listDuring, 95),
    unit: 'ms',
    n: listDuring.length,
    note: `default list requested while the uploads run; max ${Math.round(Math.max(...listDuring))} ms`,
  });
  report.add({
    name: 'server.upload.rss-sampled-peak',
    value: peakDuringUploads,
    unit: 'MB',
    note: 'VmRSS sampled every 25 ms during the uploads',
  });

  if (lastId === undefined) return;
  const reads = options.quick ? 3 : 10;
  const readSamples: number[] = [];
  let readCpu = 0;
  for (let i = 0; i < reads + 1; i++) {
    const cpuBefore = server.cpuMs();
    const result = await client.api('GET', `/webpages/${lastId}/content`);
    if (result.status !== 200) throw new Error(`content read answered ${result.status}`);
    if (i === 0) {
      // Warm-up, and a check that the answer is the file.
      const data = (JSON.parse(result.body.toString('utf8')) as { data: string }).data;
      if (Buffer.from(data, 'base64').length !== fileBytes)
        throw new Error('the content read is not the file');
      continue;
    }
    readSamples.push(result.ms);
    readCpu += server.cpuMs() - cpuBefore;
  }
  report.add({
    name: 'server.content.20mb.p50',
    value: percentile(readSamples, 50),
    unit: 'ms',
    n: readSamples.length,
  });
  report.add({
    name: 'server.content.20mb.max',
    value: Math.max(...readSamples),
    unit: 'ms',
    n: readSamples.length,
  });
  report.add({
    name: 'server.content.20mb.cpu',
    value: readCpu / readSamples.length,
    unit: 'ms/req',
    note: 'server CPU time per read',
  });
}

export async function reportMemory(
  report: Report,
  server: ServerProcess,
  options: ServerBenchOptions,
): Promise<void> {
  const memory = server.memory();
  report.add({
    name: 'server.rss.after',
    value: memory.rss,
    unit: 'MB',
    note: 'VmRSS right after the server scenarios',
  });
  report.add({
    name: 'server.rss.peak',
    value: memory.peak,
    unit: 'MB',
    note: 'VmHWM: peak since start',
  });
  // V8 gives memory back to the system only after a garbage collection; an idle process gets one
  // from V8's memory reducer within seconds.
  const idle = options.quick ? 3 : 10;
  await new Promise((resolve) => setTimeout(resolve, idle * 1000));
  report.add({
    name: 'server.rss.settled',
    value: server.memory().rss,
    unit: 'MB',
    note: `VmRSS after ${idle} s idle`,
  });
}
