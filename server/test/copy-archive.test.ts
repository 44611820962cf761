import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveApi } from '../../shared/archive-copy/archive-api.ts';
import { ApiTarget, copyArchive } from '../../shared/archive-copy/copy-archive.ts';
import { REPO_ROOT } from '../src/config.ts';
import { ok } from './support/api.ts';
import { archiveSnapshot, seedExportArchive } from './support/export-seed.ts';
import { runScript } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

type Snapshot = Awaited<ReturnType<typeof archiveSnapshot>>;

/** What a copy through the API keeps: everything but the times and the ids the target makes. */
function portable(snapshot: Snapshot) {
  return {
    webpages: snapshot.webpages
      .map((page) => ({
        id: page.id,
        title: page.title,
        excerpt: page.excerpt,
        link: page.link,
        liked: page.liked,
        read: page.read,
        labels: page.labels,
        ext: page.ext,
        size: page.size,
        highlights: page.highlights.map((highlight) => ({
          text: highlight.text,
          marker: highlight.marker,
          note: highlight.note,
          tenThousandth: highlight.tenThousandth,
        })),
      }))
      // The target lists by its own add times: the pages are copied several at a time, and uploads
      // stored in one group commit share a time, so compare the pages, not their order.
      .sort((a, b) => a.id.localeCompare(b.id)),
    views: snapshot.views
      .map(({ id: _id, createdAt: _createdAt, filters, ...view }) => ({
        ...view,
        filters: filters.map(({ id: _filterId, ...filter }) => filter),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    sha256: [...snapshot.sha256].sort(),
  };
}

const api = (server: TestServer) => new ArchiveApi({ baseUrl: server.url, token: server.token });

let source: TestServer;
let hamsterSource: TestServer;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'folio-copy-test-'));
  source = await startTestServer();
  await seedExportArchive(source);
  hamsterSource = await startTestServer({ asHamsterBase: true });
  await seedExportArchive(hamsterSource);
});

afterAll(async () => {
  await source.close();
  await hamsterSource.close();
  rmSync(work, { recursive: true, force: true });
});

describe('copy from another archive', () => {
  it('copies every page with its labels, likes, read state, highlights and views; twice duplicates nothing', async () => {
    const target = await startTestServer();
    try {
      const seen: number[] = [];
      const first = await copyArchive(api(source), new ApiTarget(api(target)), {
        copyViews: true,
        perPage: 3,
        onProgress: (progress) => seen.push(progress.done),
      });
      expect(first).toMatchObject({ total: 4, done: 4, copied: 4, already: 0, failed: [] });
      expect(first.views).toEqual({ copied: 2, already: 0 });
      expect(seen.at(-1)).toBe(4);
      const expected = portable(await archiveSnapshot(source));
      expect(portable(await archiveSnapshot(target))).toEqual(expected);

      const second = await copyArchive(api(source), new ApiTarget(api(target)), {
        copyViews: true,
      });
      expect(second).toMatchObject({ copied: 0, already: 4, completed: 0, failed: [] });
      expect(second.views).toEqual({ copied: 0, already: 2 });
      expect(portable(await archiveSnapshot(target))).toEqual(expected);
    } finally {
      await target.close();
    }
  });

  it('resumes a copy that stopped: a page there without its highlights and labels is completed', async () => {
    const target = await startTestServer();
    try {
      const list = await ok(source, 'listWebpages', { query: { sort: 'first_add_time_asc' } });
      const first = list.webpages[0]!;
      const page = await ok(source, 'getWebpage', { params: { id: first.id } });
      const content = await ok(source, 'getWebpageContent', { params: { id: first.id } });
      // As a run cut off right after the upload would leave it (one highlight made of two).
      await ok(target, 'uploadWebpage', { body: { content, ext: page.ext, title: page.title } });
      const [one] = page.highlights;
      await ok(target, 'createHighlight', {
        params: { id: first.id },
        body: {
          text: one!.text,
          textBefore: one!.marker.meta.textBefore,
          textAfter: one!.marker.meta.textAfter,
        },
      });
      const result = await copyArchive(api(source), new ApiTarget(api(target)), {
        copyViews: false,
      });
      expect(result).toMatchObject({ copied: 3, already: 1, completed: 1, failed: [] });
      const copied = await ok(target, 'getWebpage', { params: { id: first.id } });
      expect(copied.highlights.map((highlight) => highlight.text).sort()).toEqual(
        page.highlights.map((highlight) => highlight.text).sort(),
      );
      expect(copied.labels).toEqual(page.labels);
      expect(copied.liked).toBe(page.liked);
      expect(await ok(target, 'listViews')).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('copies from a server that answers as HamsterBase (no total, its list shapes)', async () => {
    const target = await startTestServer();
    try {
      const totals: (number | undefined)[] = [];
      const result = await copyArchive(api(hamsterSource), new ApiTarget(api(target)), {
        copyViews: true,
        onProgress: (progress) => totals.push(progress.total),
      });
      expect(totals[0]).toBeUndefined();
      expect(result).toMatchObject({ total: 4, copied: 4, failed: [], views: { copied: 2 } });
      expect(portable(await archiveSnapshot(target))).toEqual(
        portable(await archiveSnapshot(hamsterSource)),
      );
    } finally {
      await target.close();
    }
  });

  it('lists each page that fails with its reason and copies the others', async () => {
    const list = await ok(source, 'listWebpages');
    const sizes = list.webpages.map((page) => page.size).sort((a, b) => a - b);
    // Between the smallest and the largest file: some pages fit, some do not.
    const target = await startTestServer({ maxUploadBytes: sizes[0]! });
    try {
      expect(sizes[0]).toBeLessThan(sizes.at(-1)!);
      const result = await copyArchive(api(source), new ApiTarget(api(target)), {
        copyViews: false,
      });
      expect(result.failed.length).toBeGreaterThan(0);
      expect(result.copied).toBeGreaterThan(0);
      expect(result.copied + result.failed.length).toBe(4);
      for (const failure of result.failed) {
        expect(failure.reason).toMatch(/larger than the server accepts.*HTTP 413/);
        expect(failure.title).not.toBe('');
      }
    } finally {
      await target.close();
    }
  });

  it('with the CLI into a data folder: the same highlight ids and times; run twice', async () => {
    const dataDir = join(work, 'copied');
    const cli = join(REPO_ROOT, 'server/src/archive-io/copy-cli.ts');
    const args = ['--from', source.url, '--from-token', source.token, '--data-dir', dataDir];
    const first = await runScript(cli, args, {}, 60_000);
    expect(first.stdout).toMatch(/Copied 4 of 4 pages/);
    expect(first.code).toBe(0);
    const second = await runScript(cli, args, {}, 60_000);
    expect(second.stdout).toMatch(
      /Copied 0 of 4 pages .* 4 already there \(0 completed\); 0 failed; views: 0 copied, 2 already there/,
    );
    const copied = await startTestServer({ dataDir, keepDataDir: false });
    try {
      const expected = await archiveSnapshot(source);
      const actual = await archiveSnapshot(copied);
      expect(actual.webpages).toEqual(expected.webpages);
      expect(portable(actual)).toEqual(portable(expected));
    } finally {
      await copied.close();
    }
  });
});
