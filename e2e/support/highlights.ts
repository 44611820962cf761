// What the highlight journeys read back: the ranges drawn in a frame, the stored highlights, the
// detail's Highlights panel. Shared by e2e/highlights.spec.ts and e2e/reader-highlights.spec.ts.
import type { Page } from '@playwright/test';
import type { Archive } from './fixtures.ts';

/** A highlight as the server stores it on the page (HamsterBase's shape). */
export interface StoredHighlight {
  highlightId: string;
  type: number;
  marker: { meta: { textBefore: string; textAfter: string } };
  text: string;
  note?: string;
  tenThousandth?: number;
}

/** The page's highlights as the server has them. */
export async function storedHighlights(archive: Archive, id: string): Promise<StoredHighlight[]> {
  return (await archive.api<{ highlights: StoredHighlight[] }>('GET', `/webpages/${id}`))
    .highlights;
}

/** The text of every range drawn as a highlight in the frame, in page order. */
export function drawnHighlights(page: Page, frameSelector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const frame = document.querySelector<HTMLIFrameElement>(selector);
    const registry = (frame?.contentWindow as (Window & typeof globalThis) | null)?.CSS.highlights;
    const highlight = registry?.get('folio-highlight');
    if (!highlight) return [];
    return [...(highlight as unknown as Set<Range>)]
      .sort((a, b) => a.compareBoundaryPoints(Range.START_TO_START, b))
      .map((range) => range.toString().replace(/\s+/g, ' '));
  }, frameSelector);
}

/** The detail's Highlights panel. */
export const highlightsPanel = (page: Page) => page.getByRole('region', { name: /^Highlights \(/ });
