// What people type into search: quoted phrases, -exclusions, words without their accents (and
// with accents the page lacks), labels and hosts; CJK and Arabic keep working. The index built by
// migration 5 follows every write, and an archive made by schema 4 is re-indexed when it opens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/store/migrations.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { ok } from './support/api.ts';
import { newWebpage } from './support/new-webpage.ts';
import { useSeededServer, type SeedPage } from './support/seed.ts';

const PAGES: SeedPage[] = [
  {
    key: 'trains',
    title: 'Travel diary',
    ext: 'html',
    text: 'We took the night trains across the Alps and slept well.',
    addedAt: 1_000,
  },
  {
    key: 'apart',
    title: 'Timetable',
    ext: 'html',
    text: 'Trains leave at night; buses in the morning.',
    addedAt: 2_000,
  },
  {
    key: 'flaner',
    title: 'Flâner à Paris',
    ext: 'html',
    text: 'Un café au coin de la rue, puis flâner le long de la Seine.',
    addedAt: 3_000,
  },
  {
    key: 'plain',
    title: 'Cafe notes',
    ext: 'html',
    text: 'A cafe without an accent on the e.',
    link: 'https://coffee-roasters.example/notes',
    addedAt: 4_000,
  },
  {
    key: 'label',
    title: 'Untitled page',
    ext: 'html',
    text: 'Nothing about the label in here.',
    labels: ['birdwatching', 'weekend'],
    addedAt: 5_000,
  },
  {
    key: 'body-bird',
    title: 'Field notes',
    ext: 'html',
    text: 'A long day of birdwatching birdwatching birdwatching by the lake.',
    addedAt: 6_000,
  },
  {
    key: 'ar',
    title: 'صفحة عربية',
    ext: 'html',
    text: 'ذهبنا إلى المكتبة العامة في المدينة.',
    addedAt: 7_000,
  },
  {
    key: 'ja',
    title: '東京の地下鉄',
    ext: 'html',
    text: '夜行列車で北海道へ行きました。',
    addedAt: 8_000,
  },
];

const archive = useSeededServer(PAGES);

async function search(q: string, query: Record<string, string> = {}) {
  return (await ok(archive, 'searchWebpages', { query: { q, ...query } })).webpages;
}
const keys = async (q: string) => archive.keys(await search(q));
const marks = (segments: readonly { type: string; content: string }[] | undefined) =>
  (segments ?? []).filter((segment) => segment.type === 'mark').map((segment) => segment.content);

describe('quoted phrases and exclusions', () => {
  it('a quoted phrase finds the words together, in that order', async () => {
    expect(await keys('night trains')).toEqual(expect.arrayContaining(['trains', 'apart']));
    expect(await keys('"night trains"')).toEqual(['trains']);
    expect(await keys('"NIGHT   Trains"')).toEqual(['trains']);
    expect(await keys('"trains night"')).toEqual([]);
    // Phrases and words together.
    expect(await keys('"night trains" alps')).toEqual(['trains']);
    expect(await keys('"night trains" buses')).toEqual([]);
  });

  it('marks the whole phrase in the snippet', async () => {
    const [hit] = await search('"night trains" slept');
    expect(marks(hit?.content)).toEqual(['night trains', 'slept']);
  });

  it('-word excludes pages with it, long or short', async () => {
    expect((await keys('trains')).sort()).toEqual(['apart', 'trains']);
    expect(await keys('trains -buses')).toEqual(['trains']);
    expect(await keys('trains -"night trains"')).toEqual(['apart']);
    expect(await keys('trains -we')).toEqual(['apart']);
    // Only short terms: every page is read, the exclusion still applies.
    expect(await keys('at -buses')).not.toContain('apart');
    expect(await keys('at -buses')).toContain('label');
  });

  it('exclusions alone, a lone dash or an unclosed quote are searched as text', async () => {
    expect(await keys('-buses')).toEqual([]);
    expect(await keys('"night trains')).toEqual([]);
    expect(await keys('trains -')).toEqual([]);
  });
});

describe('accents', () => {
  it('fold both ways, in titles and text, and are marked', async () => {
    expect(await keys('flaner')).toEqual(['flaner']);
    expect(await keys('FLÂNER')).toEqual(['flaner']);
    // "café" and "cafe" find both pages; the title match first.
    expect(await keys('cafe')).toEqual(['plain', 'flaner']);
    expect(await keys('café')).toEqual(['plain', 'flaner']);
    const [, flaner] = await search('cafe');
    expect(marks(flaner?.content)).toEqual(['café']);
    const [hit] = await search('"a paris"');
    expect(marks(hit?.title)).toEqual(['à Paris']);
  });

  it('CJK and Arabic keep working', async () => {
    expect(await keys('夜行列車')).toEqual(['ja']);
    expect(await keys('地下鉄')).toEqual(['ja']);
    expect(await keys('المكتبة')).toEqual(['ar']);
    expect(await keys('"المكتبة العامة"')).toEqual(['ar']);
    const [ar] = await search('عربية');
    expect(marks(ar?.title)).toEqual(['عربية']);
  });
});

describe('labels and hosts', () => {
  it('are searched; a title match ranks above a label, a label above the text', async () => {
    expect(await keys('birdwatching')).toEqual(['label', 'body-bird']);
    expect(await keys('weekend')).toEqual(['label']);
    expect(await keys('coffee-roasters')).toEqual(['plain']);
    expect(await keys('roasters cafe')).toEqual(['plain']);
  });

  it('follow label and link edits', async () => {
    const id = archive.id('apart');
    await ok(archive, 'patchWebpage', { params: { id }, body: { labels: ['commute'] } });
    expect(await keys('commute')).toEqual(['apart']);
    await ok(archive, 'patchWebpage', { params: { id }, body: { labels: [] } });
    expect(await keys('commute')).toEqual([]);
    await ok(archive, 'patchWebpage', {
      params: { id },
      body: { link: 'https://rail-times.example/t' },
    });
    expect(await keys('rail-times')).toEqual(['apart']);
    await ok(archive, 'patchWebpage', {
      params: { id },
      body: { link: 'https://bus-times.example/t' },
    });
    expect(await keys('rail-times')).toEqual([]);
    expect(await keys('bus-times')).toEqual(['apart']);
    expect(await keys('"night trains"')).toEqual(['trains']);
  });
});

const idOf = (n: number) => n.toString(16).padStart(64, '0');

/** What the index columns must hold for each page, recomputed from the tables. */
function searchColumns(store: Store) {
  const kept = store.db
    .prepare('SELECT webpage_id AS id, labels, host FROM webpage_texts ORDER BY webpage_id')
    .all();
  const recomputed = store.db
    .prepare(
      `SELECT w.id, coalesce((SELECT group_concat(label, char(10)) FROM
         (SELECT label FROM webpage_labels WHERE webpage_id = w.id ORDER BY position)), '') AS labels,
         coalesce(w.host, '') AS host
       FROM webpages w WHERE w.id IN (SELECT webpage_id FROM webpage_texts) ORDER BY w.id`,
    )
    .all();
  return { kept, recomputed };
}

/** Terms the index tests' pages hold (or held): each looked up both ways. */
const CHECKED_TERMS = ['text', 'page', 'title', 'news', 'caf', 'a.example', 'b.example', 'label'];

/**
 * Once the index has caught up: FTS5's own check of its structure, and for each term the pages
 * it finds are those whose kept texts contain it (LIKE on webpage_texts).
 */
async function checkIndex(store: Store): Promise<void> {
  await store.search.caughtUp();
  store.db.exec("INSERT INTO search.webpage_fts (webpage_fts, rank) VALUES ('integrity-check', 1)");
  for (const term of CHECKED_TERMS) {
    const found = store.db
      .prepare('SELECT rowid FROM search.webpage_fts WHERE webpage_fts MATCH ? ORDER BY rowid')
      .pluck()
      .all(`"${term}"`);
    const like = `%${term}%`;
    const kept = store.db
      .prepare(
        `SELECT doc FROM webpage_texts WHERE title LIKE ? OR labels LIKE ? OR host LIKE ?
           OR text LIKE ? ORDER BY doc`,
      )
      .pluck()
      .all(like, like, like, like);
    expect(found, term).toEqual(kept);
  }
}

describe('the index (migration 5)', () => {
  it('follows any sequence of inserts, label and link edits, deletes and purges', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-search-'));
    const store = await openStore(dir);
    try {
      const page = fc.integer({ min: 0, max: 2 });
      const op = fc.oneof(
        fc.record({ kind: fc.constant('insert' as const), page }),
        fc.record({
          kind: fc.constant('labels' as const),
          page,
          labels: fc.uniqueArray(fc.constantFrom('café', 'news', '日本'), { maxLength: 3 }),
        }),
        fc.record({
          kind: fc.constant('link' as const),
          page,
          host: fc.constantFrom('a.example', 'b.example', null),
        }),
        fc.record({ kind: fc.constant('title' as const), page }),
        fc.record({ kind: fc.constant('purge' as const), page }),
      );
      let now = 1;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (steps) => {
          store.db.exec('DELETE FROM webpages');
          for (const step of steps) {
            now++;
            const id = idOf(step.page);
            if (step.kind === 'insert') {
              store.webpages.insert(
                newWebpage({
                  id,
                  title: `Page ${step.page}`,
                  text: 'flâner text',
                  createTime: now,
                }),
                now,
              );
            } else if (step.kind === 'labels') {
              store.webpages.update(id, { labels: step.labels }, now);
            } else if (step.kind === 'link') {
              const link =
                step.host === null
                  ? { link: null, host: null }
                  : { link: `https://${step.host}/`, host: step.host };
              store.webpages.update(id, { link }, now);
            } else if (step.kind === 'title') {
              store.webpages.update(id, { title: `Title ${now}` }, now);
            } else {
              store.db.prepare('DELETE FROM webpages WHERE id = ?').run(id);
            }
          }
          const { kept, recomputed } = searchColumns(store);
          expect(kept).toEqual(recomputed);
          await checkIndex(store);
        }),
        { numRuns: 60 },
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is rebuilt when an archive made by schema 4 opens: labels, hosts, accents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-search-'));
    try {
      const old = new BetterSqlite3(join(dir, 'folio.db'));
      migrate(old, MIGRATIONS.slice(0, 4));
      const insertPage = old.prepare(
        `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size,
           first_add_time, create_time, last_modified)
         VALUES (?, ?, '', '', ?, ?, 'html', 1, 1, 1, 1)`,
      );
      const insertText = old.prepare(
        'INSERT INTO webpage_texts (webpage_id, title, text) VALUES (?, ?, ?)',
      );
      insertPage.run(idOf(1), 'Flâner', 'https://old-host.example/', 'old-host.example');
      insertText.run(idOf(1), 'Flâner', 'un café');
      insertPage.run(idOf(2), 'Plain', null, null);
      insertText.run(idOf(2), 'Plain', 'nothing here');
      old
        .prepare('INSERT INTO webpage_labels (webpage_id, label, position) VALUES (?, ?, 0)')
        .run(idOf(2), 'archived-label');
      old.close();

      const store = await openStore(dir);
      try {
        const hits = async (q: string) =>
          (
            await store.search.search({ include: [q], exclude: [] }, {}, { page: 1, perPage: 10 })
          ).map((hit) => hit.record.id);
        expect(await hits('flaner')).toEqual([idOf(1)]);
        expect(await hits('cafe')).toEqual([idOf(1)]);
        expect(await hits('old-host')).toEqual([idOf(1)]);
        expect(await hits('archived-label')).toEqual([idOf(2)]);
        const { kept, recomputed } = searchColumns(store);
        expect(kept).toEqual(recomputed);
        await checkIndex(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
