// What migrations 4 and 9 keep by triggers (a page's labels and highlights as JSON on its row, live pages
// per host, per label and per flags) must always equal what the tables say, whatever the writes were: random
// sequences of the store's own writes, then the kept values against the same values recomputed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/store/migrations.ts';
import { openStore, type Store } from '../src/store/store.ts';

const HOSTS = ['a.example', 'b.example', 'c.example:8080'];
const LABELS = ['news', 'tech', 'art', '日本'];

type Op =
  | { kind: 'insert'; page: number; host: number | null }
  | { kind: 'labels'; page: number; labels: string[] }
  | { kind: 'link'; page: number; host: number | null }
  | { kind: 'delete'; page: number }
  | { kind: 'restore'; page: number }
  | { kind: 'purge'; page: number }
  | { kind: 'highlight'; page: number; note: string | null }
  | { kind: 'note'; page: number }
  | { kind: 'unhighlight'; page: number }
  | { kind: 'read'; page: number; value: boolean }
  | { kind: 'liked'; page: number; value: boolean };

// Few pages and long sequences, so that writes meet on the same pages.
const PAGES = 3;
const page = fc.integer({ min: 0, max: PAGES - 1 });
const host = fc.option(fc.integer({ min: 0, max: HOSTS.length - 1 }), { nil: null });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), page, host }),
  fc.record({
    kind: fc.constant('labels' as const),
    page,
    labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('link' as const), page, host }),
  fc.record({ kind: fc.constant('delete' as const), page }),
  fc.record({ kind: fc.constant('restore' as const), page }),
  fc.record({ kind: fc.constant('purge' as const), page }),
  fc.record({
    kind: fc.constant('highlight' as const),
    page,
    note: fc.option(fc.constantFrom('a "quoted" note', 'ノート'), { nil: null }),
  }),
  fc.record({ kind: fc.constant('note' as const), page }),
  fc.record({ kind: fc.constant('unhighlight' as const), page }),
  fc.record({ kind: fc.constant('read' as const), page, value: fc.boolean() }),
  fc.record({ kind: fc.constant('liked' as const), page, value: fc.boolean() }),
);

const idOf = (n: number) => n.toString(16).padStart(64, '0');
const linkOf = (hostIndex: number | null) =>
  hostIndex === null
    ? null
    : { link: `https://${HOSTS[hostIndex]}/page`, host: HOSTS[hostIndex] ?? null };

function apply(store: Store, step: Op, now: number): void {
  const id = idOf(step.page);
  switch (step.kind) {
    case 'insert': {
      const link = linkOf(step.host);
      store.webpages.insert(
        {
          id,
          title: `Page ${step.page}`,
          excerpt: '',
          text: 'some text',
          link: link?.link ?? null,
          host: link?.host ?? null,
          ext: (['html', 'mhtml', 'webarchive'] as const)[step.page % 3]!,
          size: 1,
          createTime: now,
        },
        now,
      );
      return;
    }
    case 'labels':
      store.webpages.update(id, { labels: step.labels }, now);
      return;
    case 'link': {
      const link = linkOf(step.host);
      store.webpages.update(id, { link: link ?? { link: null, host: null } }, now);
      return;
    }
    case 'delete':
      store.webpages.softDelete(id, now);
      return;
    case 'restore':
      store.webpages.restore(id, now);
      return;
    case 'purge':
      store.db.prepare('DELETE FROM webpages WHERE id = ?').run(id);
      return;
    case 'highlight':
      if (store.webpages.find(id) === undefined) return;
      store.highlights.create(
        id,
        {
          text: `text ${now}`,
          textBefore: 'before',
          textAfter: 'after',
          ...(step.note === null ? {} : { note: step.note }),
          ...(now % 2 === 0 ? { tenThousandth: now % 10_000 } : {}),
        },
        now,
      );
      return;
    case 'note': {
      const first = store.highlights.of(id)[0];
      if (first !== undefined) store.highlights.setNote(id, first.id, `edited ${now}`, now);
      return;
    }
    case 'read':
    case 'liked':
      if (store.webpages.find(id) === undefined) return;
      store.webpages.update(id, { [step.kind]: step.value }, now);
      return;
    case 'unhighlight': {
      const last = store.highlights.of(id).at(-1);
      if (last !== undefined) store.highlights.remove(id, last.id, now);
      return;
    }
  }
}

/** The kept values and the same values recomputed from the tables. */
function keptAndRecomputed(store: Store) {
  const rows = store.db
    .prepare('SELECT id, labels_json AS labels, highlights_json AS highlights FROM webpages')
    .all() as { id: string; labels: string; highlights: string }[];
  const kept = {
    pages: rows.map((row) => ({
      id: row.id,
      labels: JSON.parse(row.labels) as unknown,
      highlights: JSON.parse(row.highlights) as unknown,
    })),
    hosts: store.db.prepare('SELECT host, live FROM host_counts ORDER BY host').all(),
    labels: store.db.prepare('SELECT label, live FROM label_counts ORDER BY label').all(),
    flags: store.db
      .prepare(
        `SELECT read, liked, annotated, ext, live FROM flag_counts WHERE live <> 0
         ORDER BY read, liked, annotated, ext`,
      )
      .all(),
  };
  const recomputed = {
    pages: rows.map((row) => ({
      id: row.id,
      labels: store.labels.of(row.id),
      highlights: store.highlights.of(row.id).map((h) => ({
        highlightId: h.id,
        type: 1,
        marker: { meta: { textBefore: h.textBefore, textAfter: h.textAfter } },
        text: h.text,
        editTime: h.editTime,
        ...(h.note === null ? {} : { note: h.note }),
        ...(h.tenThousandth === null ? {} : { tenThousandth: h.tenThousandth }),
      })),
    })),
    hosts: store.db
      .prepare(
        `SELECT host, count(*) AS live FROM webpages WHERE deleted = 0 AND host IS NOT NULL
         AND host <> '' GROUP BY host ORDER BY host`,
      )
      .all(),
    labels: store.db
      .prepare(
        `SELECT l.label, count(*) AS live FROM webpage_labels l JOIN webpages w ON w.id = l.webpage_id
         WHERE w.deleted = 0 GROUP BY l.label ORDER BY l.label`,
      )
      .all(),
    flags: store.db
      .prepare(
        `SELECT read, liked, annotate_count > 0 AS annotated, ext, count(*) AS live FROM webpages
         WHERE deleted = 0 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      )
      .all(),
  };
  return { kept, recomputed };
}

describe('values kept by triggers (migrations 4 and 9)', () => {
  it('equal the tables after any sequence of writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-kept-'));
    const store = await openStore(dir);
    try {
      const reset = store.db.prepare('DELETE FROM webpages');
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 60 }), async (ops) => {
          reset.run();
          // Every page exists at first (one of them without a link); any may be purged later.
          for (let n = 0; n < PAGES; n++) {
            apply(store, { kind: 'insert', page: n, host: n === 0 ? null : n }, 1);
          }
          ops.forEach((step, index) => apply(store, step, 1_000 + index));
          const { kept, recomputed } = keptAndRecomputed(store);
          expect(kept).toEqual(recomputed);
        }),
        { numRuns: 200 },
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are filled in when an archive made by schema 3 is migrated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-kept-'));
    try {
      const old = new BetterSqlite3(join(dir, 'folio.db'));
      migrate(old, MIGRATIONS.slice(0, 3));
      const insertPage = old.prepare(
        `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size,
           first_add_time, create_time, deleted, annotate_count, last_modified)
         VALUES (?, 'T', 't', '', ?, ?, 'html', 1, 1, 1, ?, ?, 1)`,
      );
      const insertLabel = old.prepare(
        'INSERT INTO webpage_labels (webpage_id, label, position) VALUES (?, ?, ?)',
      );
      const insertHighlight = old.prepare(
        `INSERT INTO highlights (id, webpage_id, text, text_before, text_after, note,
           ten_thousandth, edit_time) VALUES (?, ?, 'text', 'b', 'a', ?, ?, 5)`,
      );
      insertPage.run(idOf(1), 'https://a.example/', 'a.example', 0, 2);
      insertPage.run(idOf(2), 'https://a.example/2', 'a.example', 0, 0);
      insertPage.run(idOf(3), 'https://b.example/', 'b.example', 1, 1);
      ['tech', 'news'].forEach((label, position) => insertLabel.run(idOf(1), label, position));
      insertLabel.run(idOf(2), 'tech', 0);
      insertLabel.run(idOf(3), 'gone', 0);
      insertHighlight.run('h1', idOf(1), 'a note', null);
      insertHighlight.run('h2', idOf(1), null, 42);
      insertHighlight.run('h3', idOf(3), null, null);
      old.close();

      const store = await openStore(dir);
      try {
        const { kept, recomputed } = keptAndRecomputed(store);
        expect(kept).toEqual(recomputed);
        expect(kept.pages.find((row) => row.id === idOf(1))?.labels).toEqual(['tech', 'news']);
        expect(kept.hosts).toEqual([{ host: 'a.example', live: 2 }]);
        expect(kept.labels).toEqual([
          { label: 'news', live: 1 },
          { label: 'tech', live: 2 },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
