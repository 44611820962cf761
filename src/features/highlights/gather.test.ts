import { describe, expect, it, vi } from 'vitest';

import type { components } from '../../../shared/contract/schema.gen.ts';
import {
  filterHighlights,
  foldText,
  GATHER_CONCURRENCY,
  GATHER_PER_PAGE,
  gatherHighlights,
  sortNewestFirst,
  type HighlightsListItem,
} from './gather.ts';
import { highlightHref, parseHighlightsParams, toHighlightsParams } from './highlights-params.ts';
import { listMarkdown } from './list-markdown.ts';

type Webpage = components['schemas']['Webpage'];
type Highlight = components['schemas']['Highlight'];

function highlight(id: string, text: string, editTime?: number, note?: string): Highlight {
  return {
    highlightId: id,
    type: 1,
    marker: { meta: { textBefore: '', textAfter: '' } },
    text,
    ...(note === undefined ? {} : { note }),
    ...(editTime === undefined ? {} : { editTime }),
  };
}

function webpage(id: string, highlights: Highlight[], extra: Partial<Webpage> = {}): Webpage {
  return {
    id,
    title: `Title ${id}`,
    excerpt: '',
    firstAddTime: 1000,
    createTime: 1000,
    liked: false,
    read: false,
    size: 1,
    ext: 'html',
    highlights,
    labels: [],
    ...extra,
  };
}

const listItem = (page: Webpage) => ({ ...page, link: page.link ?? null, annotateCount: 1 });

describe('gatherHighlights', () => {
  it('pages through the annotated list, reads each page a few at a time, newest first', async () => {
    const pages = Array.from({ length: GATHER_PER_PAGE + 5 }, (_, n) =>
      webpage(`p${n}`, [highlight(`h${n}`, `text ${n}`, n)], {
        link: `https://host${n % 2}.example/${n}`,
      }),
    );
    const listAnnotated = vi.fn(async (page: number, perPage: number) =>
      pages.slice((page - 1) * perPage, page * perPage).map(listItem),
    );
    let inFlight = 0;
    let most = 0;
    const getWebpage = vi.fn(async (id: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await Promise.resolve();
      inFlight--;
      if (id === 'p3') throw new Error('gone');
      return pages.find((page) => page.id === id)!;
    });
    const gathered = await gatherHighlights({ listAnnotated, getWebpage });
    expect(listAnnotated.mock.calls).toEqual([
      [1, GATHER_PER_PAGE],
      [2, GATHER_PER_PAGE],
    ]);
    expect(getWebpage).toHaveBeenCalledTimes(pages.length);
    expect(most).toBeLessThanOrEqual(GATHER_CONCURRENCY);
    expect(most).toBeGreaterThan(1);
    expect(gathered.pages).toBe(pages.length);
    expect(gathered.failed).toBe(1);
    expect(gathered.truncated).toBe(false);
    expect(gathered.items).toHaveLength(pages.length - 1);
    expect(gathered.items[0]?.highlight.highlightId).toBe(`h${pages.length - 1}`);
    expect(gathered.items[0]?.webpage).toMatchObject({
      id: `p${pages.length - 1}`,
      host: `host${(pages.length - 1) % 2}.example`,
    });
  });

  it('reads a page that the shifting list shows twice only once', async () => {
    const full = Array.from({ length: GATHER_PER_PAGE }, (_, n) => webpage(`p${n}`, []));
    const listAnnotated = async (page: number) =>
      page === 1 ? full.map(listItem) : [listItem(full[GATHER_PER_PAGE - 1]!)];
    const getWebpage = vi.fn(async (id: string) => webpage(id, []));
    const gathered = await gatherHighlights({ listAnnotated, getWebpage });
    expect(getWebpage).toHaveBeenCalledTimes(GATHER_PER_PAGE);
    expect(gathered.pages).toBe(GATHER_PER_PAGE);
  });
});

describe('sortNewestFirst', () => {
  it('sorts by edit time, the page’s add time standing in, later highlights of a page first', () => {
    const a = webpage('a', [highlight('a1', 'x', 5), highlight('a2', 'y', 5)]);
    const b = webpage('b', [highlight('b1', 'z')], { firstAddTime: 7 });
    const c = webpage('c', [highlight('c1', 'w', 5)]);
    const items = [a, b, c].flatMap((page) =>
      page.highlights.map((h): HighlightsListItem => ({
        highlight: h,
        webpage: {
          id: page.id,
          title: '',
          link: null,
          host: null,
          labels: [],
          firstAddTime: page.firstAddTime,
        },
      })),
    );
    expect(sortNewestFirst(items).map((item) => item.highlight.highlightId)).toEqual([
      'b1',
      'a2',
      'a1',
      'c1',
    ]);
  });
});

describe('filterHighlights', () => {
  const items: HighlightsListItem[] = [
    webpage('cafe', [highlight('h1', 'Le croissant', 3, 'Crème brûlée')], {
      link: 'https://food.example/x',
      labels: ['food', 'paris'],
    }),
    webpage('code', [highlight('h2', 'The borrow checker', 2, '100% safe')], {
      link: 'http://code.example:8080/y',
      labels: ['code'],
    }),
  ].flatMap((page) =>
    page.highlights.map((h) => ({
      highlight: h,
      webpage: {
        id: page.id,
        title: page.title,
        link: page.link ?? null,
        host: new URL(page.link!).host,
        labels: page.labels,
        firstAddTime: page.firstAddTime,
      },
    })),
  );
  const ids = (q: string, labels: string[] = [], host: string[] = []) =>
    filterHighlights(items, { q, labels, host }).map((item) => item.highlight.highlightId);

  it('searches text and notes, every word, without case or accents', () => {
    expect(foldText('Crème BRÛLÉE')).toBe('creme brulee');
    expect(ids('CROISSANT')).toEqual(['h1']);
    expect(ids('creme brulee')).toEqual(['h1']);
    expect(ids('checker 100%')).toEqual(['h2']);
    expect(ids('checker croissant')).toEqual([]);
    expect(ids('')).toEqual(['h1', 'h2']);
  });

  it('filters by every label and any host of the page', () => {
    expect(ids('', ['food'])).toEqual(['h1']);
    expect(ids('', ['food', 'code'])).toEqual([]);
    expect(ids('', [], ['code.example:8080'])).toEqual(['h2']);
    expect(ids('', [], ['code.example:8080', 'food.example'])).toEqual(['h1', 'h2']);
    expect(ids('', [], ['code.example'])).toEqual([]);
  });
});

describe('the highlights page’s address', () => {
  it('reads and writes q, label and host canonically', () => {
    const params = parseHighlightsParams(
      new URLSearchParams('q=%20note%20&label=b&label=a&label=a&host=x.example&liked=yes'),
    );
    expect(params).toEqual({ q: 'note', labels: ['a', 'b'], host: ['x.example'] });
    expect(toHighlightsParams(params).toString()).toBe('q=note&host=x.example&label=a&label=b');
  });

  it('links to the page’s detail with the highlight', () => {
    expect(highlightHref('/webpages/abc?view=v1', 'h 1&x')).toBe(
      '/webpages/abc?view=v1&highlight=h+1%26x',
    );
  });
});

describe('listMarkdown', () => {
  it('groups the list by page, in the order pages first appear', () => {
    const page = (id: string) => ({
      id,
      title: `Page ${id}`,
      link: `https://${id}.example/`,
      host: `${id}.example`,
      labels: [],
      firstAddTime: 0,
    });
    const md = listMarkdown(
      [
        { highlight: highlight('1', 'first', Date.UTC(2026, 0, 2), 'my note'), webpage: page('a') },
        { highlight: highlight('2', 'second', Date.UTC(2026, 0, 1)), webpage: page('b') },
        { highlight: highlight('3', 'third', Date.UTC(2025, 0, 1)), webpage: page('a') },
      ],
      (id) => `https://folio.example/webpages/${id}`,
      'Highlights',
      Date.UTC(2026, 10, 26),
    );
    expect(md).toContain('3 highlights from 2 pages, exported 2026-11-26.');
    const a = md.indexOf('## [Page a](<https://folio.example/webpages/a>)');
    const b = md.indexOf('## [Page b]');
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(md.indexOf('> third')).toBeLessThan(b);
    expect(md).toContain('> first\n\nmy note\n\n— 2026-01-02');
  });
});
