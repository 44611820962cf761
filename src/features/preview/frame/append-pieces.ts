// The rest of a long page (see `document/split.ts`): once the frame has loaded the page's first
// part, each piece is parsed into its container in a task of its own, after a frame has been
// drawn, so that the browser styles and lays it out in a frame of its own too. The reader sees the
// top of the page at once; the tab never stops for the whole page at a time.
import { PART_ATTRIBUTE } from '../document/split.ts';
import type { PreviewPiece } from './materialize.ts';
import { appendHtml, body, elementWithAttribute, removeAttribute } from './archived-dom.ts';

/** Resolves after the next frame has been drawn (a task after the next animation frame). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(later);
    else later();
  });
}

/** A batch of pieces that took less than this, from its start to the next frame, grows by one. */
const FAST_MS = 45;
/** One that took more is halved. */
const SLOW_MS = 90;
const MAX_BATCH = 32;

/**
 * Appends `pieces` to `doc` in order, a batch per drawn frame, then takes the part markers away.
 * A batch is one piece at first, and grows or shrinks with the time the last one took to append
 * and draw, so that each frame's work stays under a long task on any machine. Rejects with the
 * signal's reason when it aborts (the preview went away); what was appended stays in that document.
 */
export async function appendPieces(
  doc: Document,
  pieces: readonly PreviewPiece[],
  signal: AbortSignal,
  nextPaint: () => Promise<void> = afterNextPaint,
): Promise<void> {
  const containers = new Map<string, Element>();
  let batch = 1;
  let index = 0;
  await nextPaint();
  while (index < pieces.length) {
    signal.throwIfAborted();
    const started = performance.now();
    // Consecutive pieces of one container are its consecutive children: their HTML joins.
    const into = pieces[index]!.into;
    let html = '';
    for (let taken = 0; taken < batch && pieces[index]?.into === into; taken++) {
      html += pieces[index++]!.html;
    }
    let container = containers.get(into);
    if (container === undefined) {
      // The marker carries the build's nonce: no markup of the page's can hold it. Were the
      // container gone all the same, the content still goes into the page, at its end.
      container = elementWithAttribute(doc, PART_ATTRIBUTE, into) ?? body(doc) ?? undefined;
      if (container !== undefined) containers.set(into, container);
    }
    if (container !== undefined) appendHtml(container, html);
    await nextPaint();
    const took = performance.now() - started;
    if (took < FAST_MS) batch = Math.min(batch + 1, MAX_BATCH);
    else if (took > SLOW_MS) batch = Math.max(1, batch >> 1);
  }
  signal.throwIfAborted();
  for (const container of containers.values()) removeAttribute(container, PART_ATTRIBUTE);
}
