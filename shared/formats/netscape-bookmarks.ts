// Netscape bookmark files: what every browser exports (Chrome's and Edge's `bookmarks_*.html`,
// Firefox's `bookmarks.html`), and Pocket and Linkwarden too. Read structurally with htmlparser2:
// a `<dl>` opens a level whose name is the `<h3>` just before it (a folder), an `<a href>` is a
// bookmark with `add_date` (Pocket: `time_added`) and `tags`. Folders and tags become labels.
// Bounded: the file's size, the number of bookmarks and the nesting of folders; titles and labels
// are cut to the API's lengths. Only http and https links are kept (the others are counted).
import { Parser } from 'htmlparser2';

export const BOOKMARKS_MAX_BYTES = 32 * 1024 * 1024;
export const BOOKMARKS_MAX_ENTRIES = 100_000;
export const BOOKMARKS_MAX_DEPTH = 64;
const MAX_TITLE = 1000;
const MAX_LABEL = 200;
const MAX_LABELS = 50;
const MAX_URL = 4096;

export interface Bookmark {
  readonly url: string;
  readonly title: string;
  /** Its folders (outermost first), then its tags; deduplicated. */
  readonly labels: string[];
  /** Epoch ms, or null when the file has no date. */
  readonly addTime: number | null;
}

export interface BookmarksFile {
  readonly bookmarks: Bookmark[];
  /** Links that are not http(s) (javascript:, place:, chrome:, file:…), or too long. */
  readonly skipped: number;
}

/** The file cannot be read as bookmarks (too large, too many, nested too deep). */
export class BookmarksError extends Error {
  override readonly name = 'BookmarksError';
}

/** Seconds (Netscape, Pocket), milliseconds or microseconds, told apart by magnitude. */
function toEpochMs(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,20}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  if (value <= 0) return null;
  if (value >= 1e14) return Math.round(value / 1000); // microseconds
  if (value >= 1e11) return value; // milliseconds
  return value * 1000;
}

const clean = (text: string, max: number) => text.replace(/\s+/g, ' ').trim().slice(0, max);

/** Reads a bookmarks file's text. */
export function parseBookmarks(html: string): BookmarksFile {
  if (html.length > BOOKMARKS_MAX_BYTES) {
    throw new BookmarksError(
      `the file is larger than ${BOOKMARKS_MAX_BYTES / 1024 / 1024} MB: split it first`,
    );
  }
  const byUrl = new Map<string, { title: string; labels: Set<string>; addTime: number | null }>();
  let skipped = 0;
  /** Folder names of the open `<dl>` levels (null: a level without a heading). */
  const folders: (string | null)[] = [];
  let heading: string | null = null;
  let headingText: string | null = null;
  let link: { href: string; addTime: number | null; tags: string[]; text: string } | null = null;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'h3') headingText = '';
        else if (name === 'dl') {
          if (folders.length >= BOOKMARKS_MAX_DEPTH) {
            throw new BookmarksError(
              `folders are nested deeper than ${BOOKMARKS_MAX_DEPTH} levels`,
            );
          }
          folders.push(heading);
          heading = null;
        } else if (name === 'a' && attributes.href !== undefined) {
          link = {
            href: attributes.href.trim(),
            addTime: toEpochMs(attributes.add_date ?? attributes.time_added),
            tags: (attributes.tags ?? '').split(','),
            text: '',
          };
        }
      },
      ontext(text) {
        if (headingText !== null) headingText += text;
        if (link !== null) link.text += text;
      },
      onclosetag(name) {
        if (name === 'h3' && headingText !== null) {
          heading = clean(headingText, MAX_LABEL) || null;
          headingText = null;
        } else if (name === 'dl') {
          folders.pop();
          heading = null;
        } else if (name === 'a' && link !== null) {
          const current = link;
          link = null;
          let url: URL | null = null;
          try {
            url = new URL(current.href);
          } catch {
            url = null;
          }
          if (
            url === null ||
            (url.protocol !== 'http:' && url.protocol !== 'https:') ||
            current.href.length > MAX_URL
          ) {
            skipped++;
            return;
          }
          const labels = [
            ...folders.filter((folder): folder is string => folder !== null),
            ...current.tags.map((tag) => clean(tag, MAX_LABEL)).filter(Boolean),
          ];
          const known = byUrl.get(current.href);
          if (known) {
            for (const label of labels) known.labels.add(label);
            return;
          }
          if (byUrl.size >= BOOKMARKS_MAX_ENTRIES) {
            throw new BookmarksError(
              `the file has more than ${BOOKMARKS_MAX_ENTRIES} bookmarks: split it first`,
            );
          }
          byUrl.set(current.href, {
            title: clean(current.text, MAX_TITLE),
            labels: new Set(labels),
            addTime: current.addTime,
          });
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return {
    bookmarks: [...byUrl].map(([url, entry]) => ({
      url,
      title: entry.title,
      labels: [...entry.labels].slice(0, MAX_LABELS),
      addTime: entry.addTime,
    })),
    skipped,
  };
}
