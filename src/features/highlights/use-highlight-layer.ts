// Draws a page's highlights over a same-origin frame's document, from the parent: the frame runs no
// script (sandbox without allow-scripts). Drawing uses the CSS Custom Highlight API — ranges
// registered in the frame's `CSS.highlights` and painted by a `::highlight()` rule — so the
// archived DOM keeps its elements and text nodes. The rule's `<style>` is in the preview's
// documents from the start (lib/highlight-style.ts); the layer adds it to any other frame, as the
// preview's CSP allows (`style-src 'unsafe-inline'`). Any frame will do: the preview's, or reader
// mode's.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import {
  findQuote,
  indexText,
  quoteOf,
  rangeOf,
  spanOf,
  type CharSpan,
  type TextIndex,
  type TextQuote,
} from './anchor.ts';
import {
  FLASH_NAME,
  HIGHLIGHT_NAME,
  HIGHLIGHT_STYLE,
  HIGHLIGHT_STYLE_ATTRIBUTE,
} from '../../lib/highlight-style.ts';
import type { Highlight } from './api/highlight-edits.ts';
import {
  appendChild,
  createElement,
  getSelectionOf,
  headOf,
  on,
  parentElementOf,
  querySelectorAllOf,
  rootOf,
  scrollIntoView,
  setAttribute,
  setTextContent,
  textContentOf,
  viewOf,
} from './frame-dom.ts';

/** How long a highlight stays emphasised after the panel or a link asked for it. */
const FLASH_MS = 1600;

export interface AnchoredHighlight {
  highlight: Highlight;
  /** Where it is in the page's text; null when the quote is not in the page. */
  span: CharSpan | null;
}

export interface PageSelection {
  quote: TextQuote;
  /** Where the selection is drawn, in the app window's viewport coordinates. */
  rect: { top: number; bottom: number; left: number; right: number };
}

export interface HighlightLayer {
  /** Highlights in page order; those not found in the page last, in their stored order. */
  anchored: AnchoredHighlight[];
  /** Whether a document is attached and indexed. */
  ready: boolean;
  /** The reader's current selection in the frame, quoted; null when nothing is selected. */
  selection: PageSelection | null;
  clearSelection: () => void;
  /** Scrolls the frame to a highlight and emphasises it for a moment; false when not drawn. */
  reveal: (highlightId: string) => boolean;
}

type Registry = Map<string, unknown>;
type HighlightConstructor = new (...ranges: Range[]) => object;

/** The frame's highlight registry, when the browser has the API. */
function registryOf(doc: Document): Registry | null {
  const view = viewOf(doc);
  const HighlightClass = (globalThis as { Highlight?: HighlightConstructor }).Highlight;
  if (!view || typeof HighlightClass !== 'function') return null;
  const css = Reflect.get(view, 'CSS') as { highlights?: Registry } | undefined;
  return css?.highlights ?? null;
}

function makeHighlight(ranges: Range[]): object | null {
  const HighlightClass = (globalThis as { Highlight?: HighlightConstructor }).Highlight;
  return typeof HighlightClass === 'function' ? new HighlightClass(...ranges) : null;
}

/**
 * Adds the `::highlight()` rules to a document that does not have them yet (the preview's
 * documents have them from the start: see lib/highlight-style.ts).
 */
function addStyle(doc: Document): () => void {
  const parent = headOf(doc) ?? rootOf(doc);
  if (!parent) return () => {};
  const [name, value] = HIGHLIGHT_STYLE_ATTRIBUTE;
  const present = querySelectorAllOf(parent, `style[${name}="${value}"]`);
  for (let index = 0; index < present.length; index++) {
    if (textContentOf(present[index]!) === HIGHLIGHT_STYLE) return () => {};
  }
  const style = createElement(doc, 'style');
  setAttribute(style, name, value);
  setTextContent(style, HIGHLIGHT_STYLE);
  appendChild(parent, style);
  return () => style.remove();
}

function sameRect(a: PageSelection['rect'] | undefined, b: PageSelection['rect']): boolean {
  return (
    !!a && a.top === b.top && a.left === b.left && a.right === b.right && a.bottom === b.bottom
  );
}

/**
 * Anchors `highlights` in `doc` (a same-origin frame's document, or null while there is none),
 * draws them, and follows the reader's selection there.
 */
export function useHighlightLayer(
  doc: Document | null,
  highlights: readonly Highlight[],
): HighlightLayer {
  // The page's text, indexed when first needed: at once when it has highlights to draw, else when
  // the reader first selects or presses in it (a long page's index is a task of 100–200 ms, which a
  // page read without highlighting never pays). The page touched is held weakly: one left behind
  // is not kept in memory for this.
  const [touched, setTouched] = useState<WeakRef<Document> | null>(null);
  const wanted = doc !== null && (highlights.length > 0 || touched?.deref() === doc);
  const index = useMemo<TextIndex | null>(
    () => (doc && wanted ? indexText(doc) : null),
    [doc, wanted],
  );

  const anchored = useMemo<AnchoredHighlight[]>(() => {
    const found: AnchoredHighlight[] = [];
    const missing: AnchoredHighlight[] = [];
    for (const highlight of highlights) {
      const span = index
        ? findQuote(index, {
            text: highlight.text,
            textBefore: highlight.marker.meta.textBefore,
            textAfter: highlight.marker.meta.textAfter,
            ...(highlight.tenThousandth === undefined
              ? {}
              : { tenThousandth: highlight.tenThousandth }),
          })
        : null;
      (span ? found : missing).push({ highlight, span });
    }
    found.sort((a, b) => a.span!.start - b.span!.start || a.span!.end - b.span!.end);
    return [...found, ...missing];
  }, [index, highlights]);

  // The rules, once per document.
  useEffect(() => (doc ? addStyle(doc) : undefined), [doc]);

  // Every found highlight, drawn.
  useEffect(() => {
    if (!doc || !index) return;
    const registry = registryOf(doc);
    if (!registry) return;
    const ranges = anchored.flatMap(({ span }) => (span ? [rangeOf(doc, index, span)] : []));
    const drawn = makeHighlight(ranges);
    if (drawn) registry.set(HIGHLIGHT_NAME, drawn);
    return () => {
      registry.delete(HIGHLIGHT_NAME);
    };
  }, [doc, index, anchored]);

  const flashTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      clearTimeout(flashTimer.current);
      if (doc) registryOf(doc)?.delete(FLASH_NAME);
    },
    [doc],
  );

  const reveal = useCallback(
    (highlightId: string) => {
      if (!doc || !index) return false;
      const span = anchored.find(({ highlight }) => highlight.highlightId === highlightId)?.span;
      if (!span) return false;
      const range = rangeOf(doc, index, span);
      const element = parentElementOf(range.startContainer);
      if (element) scrollIntoView(element, { block: 'center' });
      const registry = registryOf(doc);
      const flash = makeHighlight([range]);
      if (registry && flash) {
        // Over the other highlights, whatever the order they were registered in.
        Reflect.set(flash, 'priority', 1);
        registry.set(FLASH_NAME, flash);
        clearTimeout(flashTimer.current);
        flashTimer.current = setTimeout(() => registry.delete(FLASH_NAME), FLASH_MS);
      }
      return true;
    },
    [doc, index, anchored],
  );

  // The selection of one document: another one (or none) has none until it says so.
  const [selected, setSelected] = useState<{ doc: Document; selection: PageSelection } | null>(
    null,
  );
  const selection = selected && selected.doc === doc ? selected.selection : null;

  useEffect(() => {
    if (!doc) return;
    if (!index) {
      // Not indexed yet: the first selection or press asks for the index; this effect then runs
      // again with it and reads the selection.
      const touch = () => setTouched(new WeakRef(doc));
      const removers = [on(doc, 'selectionchange', touch), on(doc, 'pointerdown', touch)];
      return () => {
        for (const remove of removers) remove();
      };
    }
    const setSelection = (next: PageSelection | null) =>
      setSelected((old) => {
        if (!next) return null;
        const same =
          old?.doc === doc &&
          sameRect(old.selection.rect, next.rect) &&
          old.selection.quote.text === next.quote.text;
        return same ? old : { doc, selection: next };
      });
    const view = viewOf(doc);
    let pointerDown = false;
    let frameHandle = 0;
    const read = () => {
      frameHandle = 0;
      const selected = getSelectionOf(doc);
      if (pointerDown || !selected || selected.isCollapsed || selected.rangeCount === 0) {
        setSelection(null);
        return;
      }
      const range = selected.getRangeAt(0);
      const span = spanOf(index, range);
      const frame = view?.frameElement;
      if (!span || !frame) {
        setSelection(null);
        return;
      }
      const box = range.getBoundingClientRect();
      const frameBox = frame.getBoundingClientRect();
      const rect = {
        top: frameBox.top + frame.clientTop + box.top,
        bottom: frameBox.top + frame.clientTop + box.bottom,
        left: frameBox.left + frame.clientLeft + box.left,
        right: frameBox.left + frame.clientLeft + box.right,
      };
      const quote = quoteOf(index, span, selected.toString());
      setSelection({ quote, rect });
    };
    const schedule = () => {
      if (frameHandle === 0) frameHandle = requestAnimationFrame(read);
    };
    const removers = [
      on(doc, 'selectionchange', schedule),
      on(doc, 'pointerdown', () => {
        pointerDown = true;
        schedule();
      }),
      on(doc, 'pointerup', () => {
        pointerDown = false;
        schedule();
      }),
      on(doc, 'pointercancel', () => {
        pointerDown = false;
        schedule();
      }),
      ...(view ? [on(view, 'scroll', schedule), on(window, 'resize', schedule)] : []),
    ];
    schedule();
    return () => {
      if (frameHandle) cancelAnimationFrame(frameHandle);
      for (const remove of removers) remove();
    };
  }, [doc, index]);

  const clearSelection = useCallback(() => {
    if (doc) getSelectionOf(doc)?.removeAllRanges();
    setSelected(null);
  }, [doc]);

  return { anchored, ready: index !== null, selection, clearSelection, reveal };
}
