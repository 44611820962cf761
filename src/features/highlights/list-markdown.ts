// The highlights page's list as Markdown: its items grouped by page (in the order the pages first
// appear, each page's highlights in list order), written by the one Markdown writer (markdown.ts).
import type { HighlightsListItem } from './gather.ts';
import { highlightsMarkdown, type MarkdownPage } from './markdown.ts';

/** `folioUrl` gives a page's absolute address in Folio. */
export function listMarkdown(
  items: readonly HighlightsListItem[],
  folioUrl: (webpageId: string) => string,
  heading = 'Highlights',
  exportedAt: number = Date.now(),
): string {
  const pages = new Map<
    string,
    MarkdownPage & { highlights: MarkdownPage['highlights'][number][] }
  >();
  for (const { highlight, webpage } of items) {
    let page = pages.get(webpage.id);
    if (!page) {
      page = {
        title: webpage.title,
        link: webpage.link,
        folioUrl: folioUrl(webpage.id),
        highlights: [],
      };
      pages.set(webpage.id, page);
    }
    page.highlights.push({
      text: highlight.text,
      note: highlight.note ?? null,
      time: highlight.editTime ?? null,
    });
  }
  return highlightsMarkdown([...pages.values()], heading, exportedAt);
}
