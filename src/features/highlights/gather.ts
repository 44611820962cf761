// The highlights page against a server without Folio's `listHighlights` (HamsterBase): the
// highlights are gathered from the annotated pages (the list with `annotated=true`, page by page,
// then each page for its highlights, a few at a time), sorted newest first, and searched and
// filtered here with the server's rules. Pure logic with its fetchers passed in: no React.
import type { components } from '../../../shared/contract/schema.gen.ts';
import { settleWithConcurrency } from '../../lib/concurrency.ts';
import { hostOf } from '../../lib/urls.ts';
import type { HighlightsParams } from './highlights-params.ts';

export type HighlightsListItem = components['schemas']['HighlightsListItem'];
type Webpage = components['schemas']['Webpage'];
type WebpagesListItem = components['schemas']['WebpagesListItem'];

/** Annotated pages asked for at a time. */
export const GATHER_PER_PAGE = 200;
/** At most this many list pages are read (GATHER_PER_PAGE × this annotated pages). */
export const GATHER_MAX_LIST_PAGES = 50;
/** Pages read at once for their highlights. */
export const GATHER_CONCURRENCY = 6;

export interface GatherFetchers {
  /** One page (1-based) of the annotated webpages, newest first. */
  listAnnotated: (page: number, perPage: number) => Promise<WebpagesListItem[]>;
  getWebpage: (id: string) => Promise<Webpage>;
}

export interface Gathered {
  /** Every highlight found, newest first. */
  items: HighlightsListItem[];
  /** How many annotated pages were listed. */
  pages: number;
  /** Pages that could not be read (deleted meanwhile, network…): their highlights are missing. */
  failed: number;
  /** The list had more annotated pages than were read (GATHER_MAX_LIST_PAGES). */
  truncated: boolean;
}

/** Lists the annotated pages, then reads each for its highlights. */
export async function gatherHighlights(fetchers: GatherFetchers): Promise<Gathered> {
  const listed: WebpagesListItem[] = [];
  const seen = new Set<string>();
  let truncated = false;
  for (let page = 1; ; page++) {
    if (page > GATHER_MAX_LIST_PAGES) {
      truncated = true;
      break;
    }
    const webpages = await fetchers.listAnnotated(page, GATHER_PER_PAGE);
    for (const webpage of webpages) {
      // A page added meanwhile shifts the list: the same page may come twice.
      if (!seen.has(webpage.id)) {
        seen.add(webpage.id);
        listed.push(webpage);
      }
    }
    if (webpages.length < GATHER_PER_PAGE) break;
  }
  const read = await settleWithConcurrency(listed, GATHER_CONCURRENCY, (item) =>
    fetchers.getWebpage(item.id),
  );
  const items: HighlightsListItem[] = [];
  let failed = 0;
  for (const outcome of read) {
    if (!outcome.ok) {
      failed++;
      continue;
    }
    items.push(...itemsOf(outcome.value));
  }
  return { items: sortNewestFirst(items), pages: listed.length, failed, truncated };
}

/** A page's highlights as items of the list. */
export function itemsOf(webpage: Webpage): HighlightsListItem[] {
  const page = {
    id: webpage.id,
    title: webpage.title,
    link: webpage.link ?? null,
    host: hostOf(webpage.link),
    labels: webpage.labels,
    firstAddTime: webpage.firstAddTime,
  };
  return webpage.highlights.map((highlight) => ({ highlight, webpage: page }));
}

/**
 * Newest first by edit time; without one (HamsterBase may leave it out), the page's first add
 * time stands in. Ties: the later highlight of a page first, then by page id (stable).
 */
export function sortNewestFirst(items: readonly HighlightsListItem[]): HighlightsListItem[] {
  const position = new Map(items.map((item, index) => [item, index]));
  const time = (item: HighlightsListItem) => item.highlight.editTime ?? item.webpage.firstAddTime;
  return [...items].sort(
    (a, b) =>
      time(b) - time(a) ||
      (a.webpage.id === b.webpage.id
        ? position.get(b)! - position.get(a)!
        : a.webpage.id < b.webpage.id
          ? -1
          : 1),
  );
}

/** Text without case and accents, as the server's index compares it (`Crème` → `creme`). */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a search, as the server reads them (white space separates them). */
export function searchWords(q: string): string[] {
  return [
    ...new Set(
      foldText(q)
        .split(/[\s\p{Cc}]+/u)
        .filter((word) => word !== ''),
    ),
  ];
}

/** The items that match the search and filters, in their order. */
export function filterHighlights(
  items: readonly HighlightsListItem[],
  search: HighlightsParams,
): HighlightsListItem[] {
  const words = searchWords(search.q);
  const hosts = new Set(search.host.map((host) => host.toLowerCase()));
  return items.filter((item) => {
    if (hosts.size > 0 && !hosts.has(item.webpage.host ?? '')) return false;
    if (!search.labels.every((label) => item.webpage.labels.includes(label))) return false;
    if (words.length === 0) return true;
    const text = foldText(`${item.highlight.text}\n${item.highlight.note ?? ''}`);
    return words.every((word) => text.includes(word));
  });
}
