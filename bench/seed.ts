// The benchmark archive: N webpages with realistic metadata, written in bulk transactions into
// the store's tables (opened and migrated by openStore), plus tiny original files for the newest
// pages in the blob store. The result is cached under .tmp/bench/ keyed by
// the seed version, the page count and the schema version, so later runs only copy it.
import { createHash, randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hostOf } from '../server/src/links.ts';
import { MIGRATIONS } from '../server/src/store/migrations.ts';
import { titleKey, type WebpageExt } from '../server/src/store/records.ts';
import { openStore } from '../server/src/store/store.ts';
import { prng } from '../test/support/prng.ts';
import { log } from './report.ts';

/** Bump when the generated data changes, so that cached archives are rebuilt. */
export const SEED_VERSION = 1;
const HOST_COUNT = 2000;
const LABEL_COUNT = 200;
const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const BATCH = 5000;
/** How many of the newest pages get a real (tiny) original file in the blob store. */
const FILES_FOR_NEWEST = 2000;

export interface SeedInfo {
  version: number;
  /** The schema version (number of migrations) the database is at. */
  schema: number;
  pages: number;
  /** Live (not deleted) pages. */
  live: number;
  /** The newest firstAddTime; the archive spans three years before it. */
  end: number;
  seconds: number;
  /** Hosts by number of live pages, most used first. */
  hosts: { host: string; count: number }[];
  /** Labels by number of live pages, most used first. */
  labels: { label: string; count: number }[];
}

export interface SeededArchive {
  dir: string;
  info: SeedInfo;
  /** True when this run built it (false: taken from the cache). */
  built: boolean;
}

/** Samples indexes 0..n-1 with Zipf weights 1/(i+1)^s (a few very common, a long tail). */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / Math.pow(i + 1, s);
    cumulative[i] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

const WORDS = (
  'the of and to in is for on with how why what new guide notes review deep dive into building ' +
  'react server database index query performance memory archive web page browser rust python ' +
  'typescript javascript sqlite postgres linux kernel design system interface history science ' +
  'climate energy market city travel recipe bread coffee garden music film book chapter part ' +
  'introduction understanding lessons learned year open source release announcing faster simple ' +
  'modern practical complete beginner advanced tutorial reference manual cheat sheet interview ' +
  'story essay analysis report study paper data model network security privacy cloud storage ' +
  'cache compiler runtime async stream worker thread event loop parser format encoding unicode'
).split(' ');

const UNICODE_WORDS = [
  'Éclair',
  'café',
  'naïve',
  'Übersicht',
  'Straße',
  'año',
  'ΣΟΦΙΑ',
  'Москва',
  '日本語',
  '東京の夜',
  '读书笔记',
  '한국어',
  'العربية',
  '🚀',
  '📚',
  'İstanbul',
  'ﬁle',
  'Ａｐｐｌｅ',
];

const COMMON_TITLES = ['Home', 'Untitled', 'Index', 'Login', 'Page not found', 'Dashboard', ''];

const TLDS = ['com', 'org', 'net', 'io', 'dev', 'co.uk', 'de', 'fr', 'jp', 'app'];
const SUBDOMAINS = ['', '', '', 'www.', 'blog.', 'docs.', 'news.', 'm.', 'en.', 'dev.'];

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Generates the pages one by one; deterministic for a given seed. */
class Generator {
  private readonly random = prng(0x5eed0000 + SEED_VERSION);
  private readonly hosts: string[];
  private readonly labels: string[];
  private readonly pickHost: () => number;
  private readonly pickLabel: () => number;
  private readonly titles: string[] = [];
  private readonly links: string[] = [];

  constructor() {
    const random = this.random;
    this.hosts = Array.from({ length: HOST_COUNT }, (_, i) => {
      if (i % 97 === 13) return `localhost:${3000 + i}`;
      if (i % 211 === 7) return `intranet-${i}.example:8443`;
      if (i % 131 === 11) return new URL(`https://bücher-${i}.de/`).host;
      if (i % 173 === 17) return new URL(`https://日本語-${i}.jp/`).host;
      const sub = SUBDOMAINS[Math.floor(random() * SUBDOMAINS.length)] ?? '';
      const a = this.asciiWord();
      const b = random() < 0.5 ? `-${this.asciiWord()}` : String(i);
      const tld = TLDS[Math.floor(random() * TLDS.length)] ?? 'com';
      return `${sub}${a}${b}.${tld}`.toLowerCase();
    });
    this.labels = Array.from({ length: LABEL_COUNT }, (_, i) => {
      if (i % 23 === 5) return `${UNICODE_WORDS[i % UNICODE_WORDS.length] ?? 'x'}-${i}`;
      return random() < 0.3 ? `${this.word()}/${this.word()}` : `${this.word()}-${i}`;
    });
    this.pickHost = zipf(HOST_COUNT, 1.07, random);
    this.pickLabel = zipf(LABEL_COUNT, 0.9, random);
  }

  private asciiWord(): string {
    return WORDS[Math.floor(this.random() * WORDS.length)] ?? 'x';
  }

  private word(): string {
    const random = this.random;
    if (random() < 0.04) return UNICODE_WORDS[Math.floor(random() * UNICODE_WORDS.length)] ?? '';
    return WORDS[Math.floor(random() * WORDS.length)] ?? '';
  }

  private words(min: number, max: number): string[] {
    const count = min + Math.floor(this.random() * (max - min + 1));
    return Array.from({ length: count }, () => this.word());
  }

  private title(): string {
    const random = this.random;
    const roll = random();
    if (roll < 0.02) return COMMON_TITLES[Math.floor(random() * COMMON_TITLES.length)] ?? '';
    if (roll < 0.04 && this.titles.length > 0) {
      return this.titles[Math.floor(random() * this.titles.length)] ?? '';
    }
    // Mostly 3..12 words, sometimes very long.
    const words = random() < 0.05 ? this.words(20, 40) : this.words(2, 12);
    const style = random();
    let title: string;
    if (style < 0.5) title = words.map(capitalise).join(' ');
    else if (style < 0.85) title = capitalise(words.join(' '));
    else if (style < 0.92) title = words.join(' ').toUpperCase();
    else title = words.join(' ');
    if (random() < 0.3) title += ` | ${capitalise(this.word())}`;
    return title;
  }

  next(index: number, end: number): GeneratedPage {
    const random = this.random;
    const title = this.title();
    this.titles.push(title);
    let link: string | null = null;
    if (random() > 0.08) {
      if (random() < 0.02 && this.links.length > 0) {
        link = this.links[Math.floor(random() * this.links.length)] ?? null;
      } else {
        const host = this.hosts[this.pickHost()] ?? 'example.com';
        const path = this.words(1, 4)
          .map((word) => encodeURIComponent(word.toLowerCase()))
          .join('-');
        link = `https://${host}/${path}/${index.toString(36)}`;
        if (random() < 0.1) link += `?ref=${Math.floor(random() * 1000)}`;
        link = new URL(link).href;
      }
      if (link !== null) this.links.push(link);
    }
    const labelRoll = random();
    const labelCount =
      labelRoll < 0.35
        ? 0
        : labelRoll < 0.6
          ? 1
          : labelRoll < 0.8
            ? 2
            : labelRoll < 0.9
              ? 3
              : labelRoll < 0.96
                ? 4
                : 5;
    const labels = new Set<string>();
    while (labels.size < labelCount) labels.add(this.labels[this.pickLabel()] ?? 'x');
    const extRoll = random();
    const ext: WebpageExt = extRoll < 0.5 ? 'html' : extRoll < 0.85 ? 'mhtml' : 'webarchive';
    // Log-normal around 400 kB, 2 kB .. 40 MB.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const size = Math.round(
      Math.min(40e6, Math.max(2e3, Math.exp(Math.log(400e3) + 1.2 * normal))),
    );
    // Three years, more pages recently; the caller sorts by time.
    const age = Math.pow(random(), 1.3) * 3 * YEAR_MS;
    const firstAddTime = Math.round(end - age);
    const text = this.words(15, 45).join(' ');
    const highlightRoll = random();
    const highlights = highlightRoll < 0.1 ? 1 + Math.floor(random() * 6) : 0;
    return {
      index,
      title,
      link,
      ext,
      size,
      firstAddTime,
      createTime: firstAddTime - Math.round(random() * 30 * 24 * 3600 * 1000),
      text,
      labels: [...labels],
      liked: random() < 0.15,
      read: random() < 0.4,
      highlights,
      deleted: random() < 0.01,
    };
  }
}

interface GeneratedPage {
  index: number;
  title: string;
  link: string | null;
  ext: WebpageExt;
  size: number;
  firstAddTime: number;
  createTime: number;
  text: string;
  labels: string[];
  liked: boolean;
  read: boolean;
  highlights: number;
  deleted: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The tiny original file of a page (unique per page, so its sha256 is its id). */
function fileOf(page: GeneratedPage): Buffer {
  return Buffer.from(
    `<!doctype html>\n<!-- folio bench page ${page.index} -->\n<html><head><meta charset="utf-8">` +
      `<title>${escapeHtml(page.title)}</title></head><body><p>${escapeHtml(page.text)}</p></body></html>\n`,
    'utf8',
  );
}

async function build(dir: string, pages: number): Promise<SeedInfo> {
  const started = performance.now();
  mkdirSync(join(dir, 'blobs'), { recursive: true });
  const store = await openStore(dir);
  // A throwaway build: no fsync, a big page cache (the cache folder is renamed into place only
  // once complete).
  store.db.pragma('synchronous = OFF');
  store.db.pragma('cache_size = -262144');
  try {
    const end = Date.now();
    const generator = new Generator();
    const generated = Array.from({ length: pages }, (_, index) => generator.next(index, end));
    // Pages arrive over time: insert oldest first, as an archive grows.
    generated.sort((a, b) => a.firstAddTime - b.firstAddTime);
    const folders = new Set<string>();
    // Small files are slow to create on this disk (~0.2 ms each): only the newest pages, those the
    // first screens show, get their original file. The list and view paths never read files.
    const firstWithFile = generated.length - FILES_FOR_NEWEST;
    const db = store.db;
    // The store's own statements insert one page per (nested) transaction. The bulk path writes
    // the same rows and columns in one transaction per batch.
    const insertPage = db.prepare(
      `INSERT INTO webpages (id, title, title_key, excerpt, link, host, ext, size, first_add_time,
         create_time, liked, read, deleted, annotate_count, last_modified)
       VALUES (@id, @title, @titleKey, @excerpt, @link, @host, @ext, @size, @firstAddTime,
         @createTime, @liked, @read, @deleted, @annotateCount, @lastModified)`,
    );
    // After the labels: the searched labels and host are read from the row, as the store does.
    const insertText = db.prepare(
      `INSERT INTO webpage_texts (webpage_id, title, text, labels, host)
       SELECT w.id, ?, ?,
         coalesce((SELECT group_concat(value, char(10)) FROM json_each(w.labels_json)), ''),
         coalesce(w.host, '')
       FROM webpages w WHERE w.id = ?`,
    );
    const insertLabel = db.prepare(
      'INSERT INTO webpage_labels (webpage_id, label, position) VALUES (?, ?, ?)',
    );
    const insertHighlight = db.prepare(
      `INSERT INTO highlights (id, webpage_id, text, text_before, text_after, note, ten_thousandth,
         edit_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let start = 0; start < generated.length; start += BATCH) {
      const batch = generated.slice(start, start + BATCH);
      db.transaction(() => {
        for (const [offset, page] of batch.entries()) {
          const file = fileOf(page);
          const id = createHash('sha256').update(file).digest('hex');
          if (start + offset >= firstWithFile) {
            const folder = join(dir, 'blobs', id.slice(0, 2));
            if (!folders.has(folder)) {
              mkdirSync(folder, { recursive: true, mode: 0o700 });
              folders.add(folder);
            }
            writeFileSync(store.blobs.pathOf(id), file, { mode: 0o600 });
          }
          const edited = page.firstAddTime + 60_000;
          insertPage.run({
            id,
            title: page.title,
            titleKey: titleKey(page.title),
            excerpt: page.text.slice(0, 160),
            link: page.link,
            host: hostOf(page.link),
            ext: page.ext,
            size: page.size,
            firstAddTime: page.firstAddTime,
            createTime: page.createTime,
            liked: page.liked ? 1 : 0,
            read: page.read ? 1 : 0,
            deleted: page.deleted ? 1 : 0,
            annotateCount: page.highlights,
            lastModified: edited,
          });
          page.labels.forEach((label, position) => insertLabel.run(id, label, position));
          insertText.run(page.title, page.text, id);
          const words = page.text.split(' ');
          for (let n = 0; n < page.highlights; n++) {
            const at = (n * 7) % Math.max(1, words.length - 5);
            insertHighlight.run(
              randomUUID(),
              id,
              words.slice(at, at + 4).join(' '),
              words.slice(Math.max(0, at - 3), at).join(' '),
              words.slice(at + 4, at + 7).join(' '),
              n % 3 === 0 ? `note ${n} on page ${page.index}` : null,
              n % 2 === 0 ? (n * 1234) % 10000 : null,
              edited + n,
            );
          }
        }
      })();
      log(
        `seeded ${Math.min(start + BATCH, generated.length)} / ${pages} pages ` +
          `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    // The full-text index follows in its own thread (search-index.ts); the cache holds it built.
    await store.search.caughtUp();
    log(`full-text index built (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    store.db.exec('ANALYZE main');
    const hosts = store.db
      .prepare(
        `SELECT host, count(*) AS count FROM webpages WHERE deleted = 0 AND host IS NOT NULL
         GROUP BY host ORDER BY count DESC, host`,
      )
      .all() as { host: string; count: number }[];
    const labels = store.db
      .prepare(
        `SELECT l.label, count(*) AS count FROM webpage_labels l JOIN webpages w ON w.id = l.webpage_id
         WHERE w.deleted = 0 GROUP BY l.label ORDER BY count DESC, l.label`,
      )
      .all() as { label: string; count: number }[];
    const live = (
      store.db.prepare('SELECT count(*) AS n FROM webpages WHERE deleted = 0').get() as {
        n: number;
      }
    ).n;
    return {
      version: SEED_VERSION,
      schema: MIGRATIONS.length,
      pages,
      live,
      end,
      seconds: (performance.now() - started) / 1000,
      hosts,
      labels,
    };
  } finally {
    await store.close();
  }
}

/**
 * The cached archive of `pages` pages, built first when missing. A cached archive from an older
 * schema is migrated in place by opening it with the store (as the server would).
 */
export async function seededArchive(cacheRoot: string, pages: number): Promise<SeededArchive> {
  const dir = join(cacheRoot, `seed-v${SEED_VERSION}-p${pages}`);
  const infoFile = join(dir, 'seed.json');
  if (existsSync(infoFile)) {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as SeedInfo;
    if (info.schema !== MIGRATIONS.length) {
      log(`migrating the cached archive from schema ${info.schema} to ${MIGRATIONS.length}`);
      const started = performance.now();
      const store = await openStore(dir);
      // A full-text index to build (schema 12 moved it to search.db) is built before the runs.
      await store.search.caughtUp();
      await store.close();
      info.schema = MIGRATIONS.length;
      writeFileSync(infoFile, `${JSON.stringify(info, null, 1)}\n`);
      log(`migrated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return { dir, info, built: false };
  }
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  log(`seeding ${pages} webpages into ${dir} (cached for later runs)`);
  const info = await build(building, pages);
  writeFileSync(join(building, 'seed.json'), `${JSON.stringify(info, null, 1)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { dir, info, built: true };
}

/**
 * A disposable data folder for one run: a copy of the database and hard links to the (immutable,
 * content-addressed) original files, so the cache stays untouched.
 */
export function workingCopy(archive: SeededArchive, target: string): void {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, 'blobs'), { recursive: true, mode: 0o700 });
  // The databases with their logs (a worker's connection may close after the store's, leaving
  // the last commits in the log), the full-text index's too (or the server builds it again).
  for (const file of ['folio.db', 'folio.db-wal', 'search.db', 'search.db-wal']) {
    if (existsSync(join(archive.dir, file))) {
      copyFileSync(join(archive.dir, file), join(target, file));
    }
  }
  const blobs = join(archive.dir, 'blobs');
  for (const folder of readdirSync(blobs)) {
    mkdirSync(join(target, 'blobs', folder), { mode: 0o700 });
    for (const name of readdirSync(join(blobs, folder))) {
      linkSync(join(blobs, folder, name), join(target, 'blobs', folder, name));
    }
  }
}
