// A long page in parts: Chromium parses, styles and lays out a document in the frame, which shares
// the app's main thread, and at the end of the parse it does the whole page in one task (1.7–2.3 s
// for a thread of 6,000 posts, 108,000 elements). Split, the frame loads the page's first 2,000
// nodes or so, painted at once, and the app appends the rest in pieces of about as many, each in a
// task and a frame of its own (`frame/append-parts.ts`).
//
// Where to cut is decided on the parsed page, before it is written: the body's children are taken
// in order until the first part is full; the child that does not fit is descended into when it is
// larger than a piece and a plain block container (a thread's `<main>`, `<div id="app">`, a long
// list), and cut before otherwise. Every container on the way is written with a marker attribute, `data-folio-part`, whose
// value carries the build's random nonce (text in the page cannot forge one), and its children
// after the cut are written as pieces for it. A piece is parsed by the browser in the context of
// its container (`Element.setHTMLUnsafe` on an element of the same name), so it becomes what the
// same markup in place would have: the containers are ones whose content parses the same anywhere
// in a body (no tables, no forms, no foreign content).
import type { ChildNode, Element } from 'domhandler';

import { isElement } from './parsed-nodes.ts';

/** The attribute that marks an element whose content continues in later pieces. */
export const PART_ATTRIBUTE = 'data-folio-part';

export interface SplitLimits {
  /** A body with fewer nodes (elements and texts) is written whole. */
  minNodes: number;
  /** About how many nodes the first part has, and each piece after it. */
  partNodes: number;
}

export const DEFAULT_SPLIT_LIMITS: SplitLimits = { minNodes: 8_000, partNodes: 2_000 };

/** Where the HTML namespace's elements may be descended into to cut a page. */
const CONTAINERS = new Set([
  'body',
  'div',
  'main',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'nav',
  'ul',
  'ol',
  'blockquote',
  'center',
]);

/**
 * How many nodes `root` has (itself, its descendants, their texts), counted no further than past
 * `cap`: what is decided here only compares sizes with a bound, and counting stops there (planning
 * a cut looks at the first part and the path to it, not at the whole page).
 */
function countUpTo(root: ChildNode, cap: number): number {
  let count = 0;
  const stack: ChildNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (++count > cap) return count;
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return count;
}

/** A page's cut: which containers continue in pieces, from which child on, and how big pieces are. */
export class DocumentSplit {
  private readonly markers = new Map<Element, string>();

  private constructor(
    /** Each marked container → the index of its first child written in pieces. */
    private readonly cuts: Map<Element, number>,
    readonly partNodes: number,
    nonce: string,
  ) {
    let index = 0;
    for (const element of cuts.keys()) this.markers.set(element, `${nonce}-${index++}`);
  }

  /**
   * The cut of a document whose body is `body`, or `null` when the page is small enough to be
   * written whole (or has no place to cut).
   */
  static plan(
    body: Element,
    nonce: string,
    limits: SplitLimits = DEFAULT_SPLIT_LIMITS,
  ): DocumentSplit | null {
    if (countUpTo(body, limits.minNodes) < limits.minNodes) return null;
    const cuts = new Map<Element, number>();
    let container = body;
    let room = limits.partNodes;
    for (;;) {
      const children = container.children;
      let index = 0;
      for (; index < children.length; index++) {
        const size = countUpTo(children[index]!, room);
        if (size > room) break;
        room -= size;
      }
      if (index >= children.length) break;
      const child = children[index]!;
      // A child larger than a piece is cut in turn if it can be; a smaller one starts the pieces.
      const large = countUpTo(child, limits.partNodes) > limits.partNodes;
      if (large && isElement(child) && CONTAINERS.has(child.name.toLowerCase())) {
        // The rest of this container comes after the child that is cut in turn.
        if (index + 1 < children.length) cuts.set(container, index + 1);
        container = child;
        continue;
      }
      // A child that cannot be cut is written whole, in the first part when nothing precedes it.
      const from = index === 0 ? 1 : index;
      if (from < children.length) cuts.set(container, from);
      break;
    }
    if (cuts.size === 0) return null;
    return new DocumentSplit(cuts, limits.partNodes, nonce);
  }

  /** The marker of a container that continues in pieces, written as its `data-folio-part`. */
  markerOf(element: Element): string | undefined {
    return this.markers.get(element);
  }

  /** The index of the first child of `element` written in pieces (for a marked container). */
  cutOf(element: Element): number | undefined {
    return this.cuts.get(element);
  }

  /** How many nodes a child counts for when filling a piece (a piece's worth at most). */
  sizeOf(node: ChildNode): number {
    return countUpTo(node, this.partNodes);
  }
}
