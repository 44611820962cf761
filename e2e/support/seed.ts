// Seeding an archive through the API, in one concurrent batch, with a model of what was stored so
// journeys can compute which rows the app must show.
import { makeHtml, makeMhtml, makeWebarchive } from '../../test/support/archives.ts';
import type { Archive } from './fixtures.ts';

export type Ext = 'html' | 'mhtml' | 'webarchive';

export interface SeedPage {
  title: string;
  host: string;
  ext: Ext;
  liked: boolean;
  read: boolean;
  labels: string[];
}

export interface SeededPage extends SeedPage {
  id: string;
  link: string;
}

/** A small file of `ext` whose own title is `title` (unique bytes per title). */
export function fileFor(ext: Ext, title: string, link: string): Buffer {
  const html =
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>Seeded page “${title}”.</p></body></html>`;
  if (ext === 'html') return makeHtml({ title, singleFileUrl: link, body: `<h1>${title}</h1>` });
  if (ext === 'mhtml')
    return makeMhtml({ html, url: link, date: new Date('2026-01-02T03:04:05Z') });
  return makeWebarchive({ html, url: link });
}

/** Uploads every page and sets its likes, read state and labels, all at once. */
export async function seed(archive: Archive, pages: readonly SeedPage[]): Promise<SeededPage[]> {
  return Promise.all(
    pages.map(async (page, index) => {
      const link = `https://${page.host}/p/${index}`;
      const { id } = await archive.upload(fileFor(page.ext, page.title, link), page.ext, { link });
      if (page.liked || page.read || page.labels.length) {
        await archive.api('PATCH', `/webpages/${id}`, {
          liked: page.liked,
          read: page.read,
          labels: page.labels,
        });
      }
      return { ...page, id, link };
    }),
  );
}

const ADJECTIVES = ['Amber', 'brisk', 'Cobalt', 'dusty', 'Eager', 'faint', 'Golden', 'hidden'];
const NOUNS = ['harbour', 'Lantern', 'meadow', 'Orchard', 'quarry', 'Ridge', 'summit', 'Tundra'];
export const HOSTS = [
  'news.example.com',
  'blog.example.org',
  'docs.example.net',
  'shop.example.io:8443',
  'wiki.example.edu',
];
const EXTS: readonly Ext[] = ['html', 'mhtml', 'webarchive'];

/**
 * `count` varied pages: mixed-case titles (Folio sorts them ignoring case), five hosts (one
 * with a port), the three formats, about a third liked, two fifths read, and labels on half.
 */
export function variedPages(count: number): SeedPage[] {
  return Array.from({ length: count }, (_, i) => {
    const labels = [[], ['research'], ['research', 'to-cite'], ['recipes']][i % 4]!;
    return {
      title: `${ADJECTIVES[(i * 5) % ADJECTIVES.length]} ${NOUNS[(i * 3) % NOUNS.length]} no. ${String(i).padStart(2, '0')}`,
      host: HOSTS[i % HOSTS.length]!,
      ext: EXTS[Math.floor(i / 2) % EXTS.length]!,
      liked: i % 3 === 0,
      read: i % 5 === 1 || i % 5 === 3,
      labels,
    };
  });
}

/**
 * Titles in the order of Folio's `title_asc`: case and accents ignored (the real HamsterBase sorts by
 * bytes instead). The seeded titles are ASCII and unique ignoring case, so there are no ties.
 */
export function byTitle(pages: readonly SeedPage[], direction: 'asc' | 'desc' = 'asc'): string[] {
  const key = (title: string) => title.toLowerCase();
  const titles = pages
    .map((page) => page.title)
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return direction === 'asc' ? titles : titles.reverse();
}
