import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { HIGHLIGHT_STYLE_ELEMENT } from '../../lib/highlight-style.ts';
import type { Highlight } from './api/highlight-edits.ts';
import { useHighlightLayer } from './use-highlight-layer.ts';

function page(head = ''): Document {
  return new DOMParser().parseFromString(
    `<!doctype html><html><head>${head}</head><body><p>Quokkas are small marsupials.</p></body></html>`,
    'text/html',
  );
}

const QUOKKAS: Highlight = {
  highlightId: 'h1',
  type: 1,
  marker: { meta: { textBefore: '', textAfter: '' } },
  text: 'small marsupials',
  editTime: Date.UTC(2026, 10, 29),
};

describe('the highlight layer', () => {
  it('adds its rules to a page without them, and none to a preview, which has them', () => {
    const styles = (doc: Document) =>
      Array.from(doc.querySelectorAll('style'), (style) => style.getAttribute('data-folio'));
    const bare = page();
    const forged = page('<style data-folio="highlights">::highlight(folio-highlight){}</style>');
    const preview = page(HIGHLIGHT_STYLE_ELEMENT);
    const mounted = [bare, forged, preview].map((doc) => {
      renderHook(() => useHighlightLayer(doc, [QUOKKAS]));
      return styles(doc);
    });
    expect(mounted).toEqual([['highlights'], ['highlights', 'highlights'], ['highlights']]);
  });

  it('indexes a page with highlights at once and finds them in it', () => {
    const { result } = renderHook(() => useHighlightLayer(page(), [QUOKKAS]));
    expect(result.current.ready).toBe(true);
    expect(result.current.anchored[0]?.span).not.toBeNull();
  });

  it('indexes a page without highlights only once the reader presses or selects in it', () => {
    for (const event of ['pointerdown', 'selectionchange']) {
      const doc = page();
      const { result, unmount } = renderHook(() => useHighlightLayer(doc, []));
      expect(result.current.ready).toBe(false);
      act(() => {
        doc.dispatchEvent(new Event(event));
      });
      expect(result.current.ready, event).toBe(true);
      unmount();
    }
  });

  it('indexes each new page again: one touched before does not count for the next', () => {
    const first = page();
    const { result, rerender } = renderHook(({ doc }) => useHighlightLayer(doc, []), {
      initialProps: { doc: first },
    });
    act(() => {
      first.dispatchEvent(new Event('pointerdown'));
    });
    expect(result.current.ready).toBe(true);
    rerender({ doc: page() });
    expect(result.current.ready).toBe(false);
  });
});
