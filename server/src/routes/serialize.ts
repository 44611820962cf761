import type { components } from '../../../shared/contract/schema.gen.ts';
import type { HighlightRecord, WebpageListRecord, WebpageRecord } from '../store/records.ts';
import { markSegments, snippetSegments } from '../store/search-snippets.ts';
import type { SearchHit } from '../store/search.ts';
import type { ViewRecord, ViewWebpageRecord } from '../store/views.ts';

type Schemas = components['schemas'];

/** A webpage as the API shows it: `link` absent when there is none. */
export function toWebpage(
  record: WebpageRecord,
  labels: string[],
  highlights: HighlightRecord[],
): Schemas['Webpage'] {
  return {
    id: record.id,
    title: record.title,
    excerpt: record.excerpt,
    firstAddTime: record.firstAddTime,
    createTime: record.createTime,
    liked: record.liked,
    read: record.read,
    ...(record.link === null ? {} : { link: record.link }),
    size: record.size,
    ext: record.ext,
    highlights: highlights.map(toHighlight),
    labels,
  };
}

/** A list item: `link` null when there is none, no excerpt, no highlights. */
export function toListItem(record: WebpageListRecord): Schemas['WebpagesListItem'] {
  return {
    id: record.id,
    title: record.title,
    firstAddTime: record.firstAddTime,
    createTime: record.createTime,
    liked: record.liked,
    read: record.read,
    link: record.link,
    size: record.size,
    ext: record.ext,
    labels: record.labels,
    annotateCount: record.annotateCount,
  };
}

/** A view's list item carries a few more fields, as HamsterBase's does. */
export function toViewListItem(record: ViewWebpageRecord): Schemas['ViewWebpagesListItem'] {
  return {
    ...toListItem(record),
    lastModified: record.lastModified,
    deleted: 0,
    highlights: record.highlights.map(toHighlight),
  };
}

export function toHighlight(highlight: HighlightRecord): Schemas['Highlight'] {
  return {
    highlightId: highlight.id,
    type: 1,
    marker: { meta: { textBefore: highlight.textBefore, textAfter: highlight.textAfter } },
    text: highlight.text,
    ...(highlight.note === null ? {} : { note: highlight.note }),
    ...(highlight.tenThousandth === null ? {} : { tenThousandth: highlight.tenThousandth }),
    editTime: highlight.editTime,
  };
}

export function toView(view: ViewRecord): Schemas['WebpagesView'] {
  return {
    id: view.id,
    title: view.title,
    description: view.description,
    createdAt: view.createdAt,
    enableLimit: view.enableLimit,
    limit: view.limit,
    sort: view.sort,
    filters: view.filters,
    match: view.match,
  };
}

export function toSearchResult(hit: SearchHit, terms: readonly string[]): Schemas['SearchResult'] {
  const { record } = hit;
  return {
    id: record.id,
    link: record.link,
    liked: record.liked,
    read: record.read,
    ext: record.ext,
    firstAddTime: record.firstAddTime,
    annotateCount: record.annotateCount,
    title: markSegments(record.title, terms),
    content: snippetSegments(hit.text, terms),
    labels: record.labels,
  };
}
