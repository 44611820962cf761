// Concurrency: 20 clients at once patch (liked, read, title, labels), delete and re-upload the same
// few pages. No answer may be a 500, every answer is checked against the contract, and the final
// state must be one that a sequential execution of the acknowledged writes could produce.
//
// "No lost update", precisely: each field of each page is a register (`labels` is one value, the
// whole set, since a PATCH replaces it; "live" is written by delete (false) and upload (true)).
// A write is acknowledged when it was answered 200. The final value of a register must be the
// value of an acknowledged write W to it such that no other acknowledged write to it was sent after
// W's answer arrived, i.e. W is not followed, in real time, by another write (a linearizable
// register's last write), or the initial value when no write to it was acknowledged.
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { prng } from '../../test/support/prng.ts';
import { call, ok } from './support/api.ts';
import { storedIds } from './support/originals.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const CLIENTS = 20;
const OPERATIONS_PER_CLIENT = 40;
const PAGES = 4;

type Field = 'live' | 'title' | 'liked' | 'read' | 'labels';
type Value = boolean | string | string[];

interface Write {
  page: number;
  field: Field;
  value: Value;
  sentAt: number;
  answeredAt: number;
}

const files = Array.from({ length: PAGES }, (_, index) =>
  makeHtml({ title: `Shared page ${index}`, body: `<p>shared text ${index}</p>` }),
);
const initial = (index: number): Record<Field, Value> => ({
  live: true,
  title: `Shared page ${index}`,
  liked: false,
  read: false,
  labels: [],
});

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('20 clients on the same pages', () => {
  it('upload the same new files at once: one record each, same answers', async () => {
    const answers = await Promise.all(
      Array.from({ length: CLIENTS }, (_, client) =>
        call(server, 'uploadWebpage', {
          body: { content: files[client % PAGES]!.toString('base64'), ext: 'html' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const ids = new Set(answers.map((answer) => answer.body.data.id as string));
    expect(ids.size).toBe(PAGES);
    const list = await ok(server, 'listWebpages');
    expect(new Set(list.webpages.map((item) => item.id))).toEqual(ids);
    // One original each, kept once (in the database or the blob store, not both).
    expect(storedIds(server.dataDir)).toEqual([...ids].sort());
  });

  it('patch, label, delete and re-upload: no 500, no lost acknowledged write, consistent', async () => {
    const ids = await Promise.all(
      files.map(async (file) => {
        const answer = await call(server, 'uploadWebpage', {
          body: { content: file.toString('base64'), ext: 'html' },
        });
        return answer.body.data.id as string;
      }),
    );
    const writes: Write[] = [];
    const statuses = new Map<string, number>();
    const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);

    let failed = false;
    const client = async (index: number) => {
      const random = prng(0xc0ffee + index);
      for (let step = 0; step < OPERATIONS_PER_CLIENT && !failed; step++) {
        const page = Math.floor(random() * PAGES);
        const id = ids[page]!;
        const roll = random();
        const sentAt = performance.now();
        if (roll < 0.08) {
          const answer = await call(server, 'deleteWebpage', { params: { id } });
          count(`delete ${answer.status}`);
          expect([200, 404]).toContain(answer.status);
          if (answer.status === 200) {
            writes.push({
              page,
              field: 'live',
              value: false,
              sentAt,
              answeredAt: performance.now(),
            });
          }
        } else if (roll < 0.16) {
          const answer = await call(server, 'uploadWebpage', {
            body: { content: files[page]!.toString('base64'), ext: 'html' },
          });
          count(`upload ${answer.status}`);
          expect(answer.status).toBe(200);
          expect(answer.body.data.id).toBe(id);
          writes.push({ page, field: 'live', value: true, sentAt, answeredAt: performance.now() });
        } else {
          const patch: Partial<Record<Field, Value>> = {};
          const kind = random();
          if (kind < 0.25) patch.liked = random() < 0.5;
          else if (kind < 0.5) patch.read = random() < 0.5;
          else if (kind < 0.75) patch.title = `title ${index}.${step}`;
          else {
            patch.labels = [`c${index}`, `s${step % 3}`, `p${page}`].slice(
              0,
              Math.floor(random() * 4),
            );
          }
          if (random() < 0.3) patch.liked = random() < 0.5; // sometimes two fields at once
          const answer = await call(server, 'patchWebpage', { params: { id }, body: patch });
          count(`patch ${answer.status}`);
          expect([200, 404]).toContain(answer.status);
          if (answer.status !== 200) continue;
          const answeredAt = performance.now();
          // The answer shows the write it made, whatever the other clients do.
          expect(answer.body.data).toMatchObject(patch);
          for (const [field, value] of Object.entries(patch) as [Field, Value][]) {
            writes.push({ page, field, value, sentAt, answeredAt });
          }
        }
      }
    };
    // On a failure the other clients stop at their next step; all settle before the checks.
    const settled = await Promise.allSettled(
      Array.from({ length: CLIENTS }, (_, index) =>
        client(index).catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      ),
    );
    for (const result of settled) if (result.status === 'rejected') throw result.reason;

    expect([...statuses.keys()].some((key) => key.endsWith(' 500'))).toBe(false);
    // Enough patches landed on a live page for the checks below to mean something. How many do
    // (of ~670 sent) depends on how the clients interleave with the deletes, so on the machine's
    // load: 290 were seen beside other test files, hence a floor well below that.
    expect(statuses.get('patch 200') ?? 0).toBeGreaterThan(150);
    expect(statuses.get('delete 200') ?? 0).toBeGreaterThan(0);

    // The final state, read through the API (a deleted page is read through a restore).
    const list = await ok(server, 'listWebpages', { query: { per_page: 1000 } });
    const listed = new Map(list.webpages.map((item) => [item.id, item]));
    for (let page = 0; page < PAGES; page++) {
      const id = ids[page]!;
      const got = await call(server, 'getWebpage', { params: { id } });
      const live = got.status === 200;
      expect(listed.has(id)).toBe(live);
      expectLastWrite(writes, page, 'live', live, initial(page).live);
      const data = live
        ? got.body.data
        : (
            await call(server, 'uploadWebpage', {
              body: { content: files[page]!.toString('base64'), ext: 'html' },
            })
          ).body.data;
      for (const field of ['title', 'liked', 'read', 'labels'] as const) {
        expectLastWrite(writes, page, field, data[field] as Value, initial(page)[field]);
      }
      const item =
        listed.get(id) ?? (await ok(server, 'listWebpages')).webpages.find((w) => w.id === id);
      expect(item).toMatchObject({
        title: data.title,
        liked: data.liked,
        read: data.read,
        labels: data.labels,
      });
    }

    // Everything derived agrees: the facets count the labels of the pages, a view lists them all.
    const pages = await Promise.all(ids.map((id) => ok(server, 'getWebpage', { params: { id } })));
    const counts = new Map<string, number>();
    for (const page of pages)
      for (const label of page.labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    const facets = await ok(server, 'getFacets');
    expect(new Map(facets.labels.map((facet) => [facet.value, facet.count]))).toEqual(counts);
    const view = await ok(server, 'createView', { body: { title: 'everything' } });
    const inView = await ok(server, 'listViewWebpages', { params: { view_id: view.id } });
    expect(inView.webpages.map((item) => item.id).sort()).toEqual([...ids].sort());

    const db = new BetterSqlite3(join(server.dataDir, 'folio.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const labelRows = db
        .prepare('SELECT webpage_id AS id, COUNT(*) AS n FROM webpage_labels GROUP BY webpage_id')
        .all() as { id: string; n: number }[];
      for (const row of labelRows) {
        expect(row.n).toBe(pages.find((page) => page.id === row.id)?.labels.length);
      }
    } finally {
      db.close();
    }
  }, 60_000);
});

/**
 * The register (page, field) ends with the value of one of its last acknowledged writes: a write
 * that no other acknowledged write to it followed in real time (sent after its answer came).
 */
function expectLastWrite(
  writes: readonly Write[],
  page: number,
  field: Field,
  actual: Value,
  initialValue: Value,
): void {
  const own = writes.filter((write) => write.page === page && write.field === field);
  if (own.length === 0) {
    expect(actual, `page ${page} ${field}: never written`).toEqual(initialValue);
    return;
  }
  const last = own.filter((write) => !own.some((later) => later.sentAt > write.answeredAt));
  const candidates = last.map((write) => JSON.stringify(write.value));
  expect(
    candidates,
    `page ${page} ${field}: ${JSON.stringify(actual)} is not a last write`,
  ).toContain(JSON.stringify(actual));
}
