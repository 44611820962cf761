// Highlights anchored the way HamsterBase anchors them: by the quoted text and a little text before
// and after it (`marker.meta.textBefore` / `textAfter`), plus the position in the page in ten
// thousandths. Nothing points into the DOM, so a highlight made on a page in HamsterBase's app shows
// on the same page here, and the other way round.
//
// Matching ignores whitespace: how much of it a quote carries depends on who took it (a selection's
// text has line breaks between blocks, the page's text nodes may have none, or runs of spaces and
// indentation). Each non-space character of the page's text is indexed once with the text node and
// offset it comes from, and quotes are compared over those characters.
import { APP_TEXT_ATTRIBUTE } from '../../lib/page-text.ts';
import {
  bodyOf,
  comparePosition,
  createRange,
  createTreeWalker,
  nextNode,
  querySelectorAllOf,
  rootOf,
  textDataOf,
} from './frame-dom.ts';

/** Characters of text kept before and after a quote (HamsterBase's app sends a few dozen). */
export const CONTEXT_LENGTH = 32;
/** Occurrences of a quote looked at when choosing by context (a bound on the work per quote). */
const MAX_OCCURRENCES = 10_000;
/** Text content of these is not the page's text. */
const NOT_TEXT = ['script', 'style', 'noscript', 'template', 'title', 'head'];
/** The elements whose text (and their descendants') is left out of the page's text. */
const EXCLUDED_SELECTOR = [...NOT_TEXT, `[${APP_TEXT_ATTRIBUTE}]`].join(', ');

const WHITESPACE = /\s/;

export interface TextIndex {
  /** The page's text nodes, in document order. */
  nodes: Text[];
  /** Every character of the page's text that is not whitespace, in order. */
  chars: string;
  /** For each character of `chars`: the index in `nodes` of its text node, and its offset there. */
  nodeOf: Int32Array;
  offsetOf: Int32Array;
}

/** A highlight's quote, as stored (HamsterBase's create body, less the note). */
export interface TextQuote {
  text: string;
  textBefore: string;
  textAfter: string;
  /** Where the quote starts in the page, 0–10000. */
  tenThousandth?: number;
}

/** A quote's place in `TextIndex.chars`: `[start, end)`. */
export interface CharSpan {
  start: number;
  end: number;
}

export function stripWhitespace(text: string): string {
  return text.replace(/\s+/g, '');
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * Indexes the text of `doc`'s body (its root element when it has none), less what the app wrote
 * there itself (`APP_TEXT_ATTRIBUTE`).
 */
export function indexText(doc: Document): TextIndex {
  const root = bodyOf(doc) ?? rootOf(doc);
  if (!root) return { nodes: [], chars: '', nodeOf: new Int32Array(), offsetOf: new Int32Array() };
  // The text nodes in document order, less those inside an element whose text is not the page's.
  // A walk over text nodes alone, with the (few) excluded subtrees found beforehand, calls no
  // script per node: a NodeFilter is a call from the browser into script for every element and
  // text node (330 of 420 ms for a page of 100,000 elements in Chromium, against 25 ms).
  const excluded = Array.from(querySelectorAllOf(root, EXCLUDED_SELECTOR));
  let nextExcluded = 0;
  const isExcluded = (node: Node): boolean => {
    // Both lists are in document order: an excluded element that `node` follows without being
    // inside it is passed for good.
    while (nextExcluded < excluded.length) {
      const position = comparePosition(excluded[nextExcluded]!, node);
      if (position & Node.DOCUMENT_POSITION_CONTAINED_BY) return true;
      if (!(position & Node.DOCUMENT_POSITION_FOLLOWING)) return false;
      nextExcluded++;
    }
    return false;
  };
  const walker = createTreeWalker(doc, root, NodeFilter.SHOW_TEXT, null);
  const nodes: Text[] = [];
  const texts: string[] = [];
  let length = 0;
  for (let node = nextNode(walker); node !== null; node = nextNode(walker)) {
    if (isExcluded(node)) continue;
    const data = textDataOf(node as Text);
    nodes.push(node as Text);
    texts.push(data);
    length += data.length;
  }
  // Each character that is not whitespace, with its node and offset; the characters themselves
  // as runs between whitespace (one string per run, not per character).
  const nodeOf = new Int32Array(length);
  const offsetOf = new Int32Array(length);
  const runs: string[] = [];
  let count = 0;
  texts.forEach((data, node) => {
    let runStart = -1;
    for (let offset = 0; offset < data.length; offset++) {
      if (isWhitespace(data, offset)) {
        if (runStart !== -1) runs.push(data.slice(runStart, offset));
        runStart = -1;
        continue;
      }
      if (runStart === -1) runStart = offset;
      nodeOf[count] = node;
      offsetOf[count] = offset;
      count++;
    }
    if (runStart !== -1) runs.push(runStart === 0 ? data : data.slice(runStart));
  });
  return {
    nodes,
    chars: runs.join(''),
    nodeOf: nodeOf.slice(0, count),
    offsetOf: offsetOf.slice(0, count),
  };
}

/** `/\s/` for the code unit at `index` of `text`, without a regular expression for ASCII. */
function isWhitespace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return code >= 127 && WHITESPACE.test(text[index]!);
}

interface Point {
  node: number;
  offset: number;
}

/** Where character `char` starts (or, past the last character, where the text ends). */
function pointBefore(index: TextIndex, char: number): Point {
  if (char < index.chars.length)
    return { node: index.nodeOf[char]!, offset: index.offsetOf[char]! };
  const last = index.nodes.length - 1;
  return last < 0
    ? { node: 0, offset: 0 }
    : { node: last, offset: textDataOf(index.nodes[last]!).length };
}

/** Where character `char` ends. */
function pointAfter(index: TextIndex, char: number): Point {
  if (char < 0) return { node: 0, offset: 0 };
  return { node: index.nodeOf[char]!, offset: index.offsetOf[char]! + 1 };
}

/** The raw text between two points. */
function textBetween(index: TextIndex, from: Point, to: Point): string {
  if (!index.nodes.length) return '';
  if (from.node === to.node)
    return textDataOf(index.nodes[from.node]!).slice(from.offset, to.offset);
  let text = textDataOf(index.nodes[from.node]!).slice(from.offset);
  for (let node = from.node + 1; node < to.node; node++) text += textDataOf(index.nodes[node]!);
  return text + textDataOf(index.nodes[to.node]!).slice(0, to.offset);
}

/** The DOM range of a span of characters. */
export function rangeOf(doc: Document, index: TextIndex, span: CharSpan): Range {
  const start = pointBefore(index, span.start);
  const end = pointAfter(index, span.end - 1);
  const range = createRange(doc);
  range.setStart(index.nodes[start.node]!, start.offset);
  range.setEnd(index.nodes[end.node]!, end.offset);
  return range;
}

/** The characters of the page a DOM range covers, or null when it covers none. */
export function spanOf(index: TextIndex, range: Range): CharSpan | null {
  let start = -1;
  let end = -1;
  // Characters are in node order, so the first and last indexed characters inside the range bound it.
  let char = 0;
  for (let node = 0; node < index.nodes.length; node++) {
    const first = char;
    while (char < index.chars.length && index.nodeOf[char] === node) char++;
    if (first === char) continue;
    const text = index.nodes[node]!;
    if (!range.intersectsNode(text)) {
      if (start >= 0) break;
      continue;
    }
    const from = range.startContainer === text ? range.startOffset : 0;
    const to = range.endContainer === text ? range.endOffset : Number.POSITIVE_INFINITY;
    for (let at = first; at < char; at++) {
      const offset = index.offsetOf[at]!;
      if (offset < from || offset >= to) continue;
      if (start < 0) start = at;
      end = at + 1;
    }
  }
  return start < 0 ? null : { start, end };
}

function tenThousandthOf(index: TextIndex, start: number): number {
  return index.chars.length ? Math.round((start / index.chars.length) * 10_000) : 0;
}

/**
 * The quote of a span of the page with its context, ready to send. `selected` is the text the
 * reader selected (line breaks between blocks kept) and is the quote when it is that same text;
 * otherwise the page's own text of the span is.
 */
export function quoteOf(index: TextIndex, span: CharSpan, selected?: string): TextQuote {
  const own = stripWhitespace(selected ?? '') === index.chars.slice(span.start, span.end);
  const text = own
    ? selected!.trim()
    : collapseWhitespace(
        textBetween(index, pointBefore(index, span.start), pointAfter(index, span.end - 1)),
      ).trim();
  const before = collapseWhitespace(
    textBetween(
      index,
      pointBefore(index, Math.max(0, span.start - CONTEXT_LENGTH)),
      pointBefore(index, span.start),
    ),
  ).slice(-CONTEXT_LENGTH);
  const after = collapseWhitespace(
    textBetween(
      index,
      pointAfter(index, span.end - 1),
      pointAfter(index, Math.min(index.chars.length, span.end + CONTEXT_LENGTH) - 1),
    ),
  ).slice(0, CONTEXT_LENGTH);
  return {
    text,
    textBefore: before,
    textAfter: after,
    tenThousandth: tenThousandthOf(index, span.start),
  };
}

/** How many characters before `at` equal the end of `context` (compared backwards). */
function matchingBefore(chars: string, at: number, context: string): number {
  let count = 0;
  while (
    count < context.length &&
    at - count - 1 >= 0 &&
    chars[at - count - 1] === context[context.length - count - 1]
  ) {
    count++;
  }
  return count;
}

/** How many characters from `at` on equal the start of `context`. */
function matchingAfter(chars: string, at: number, context: string): number {
  let count = 0;
  while (count < context.length && chars[at + count] === context[count]) count++;
  return count;
}

/**
 * Finds a quote in the page: where the quote and its whole context match; else the occurrence of
 * the quote whose surrounding text matches most of the context; ties (and quotes without context)
 * go to the occurrence nearest `tenThousandth`, then to the first. Null when the quote is not in
 * the page at all.
 */
export function findQuote(index: TextIndex, quote: TextQuote): CharSpan | null {
  const text = stripWhitespace(quote.text);
  if (!text) return null;
  const before = stripWhitespace(quote.textBefore);
  const after = stripWhitespace(quote.textAfter);
  const { chars } = index;
  const wanted =
    typeof quote.tenThousandth === 'number' && Number.isFinite(quote.tenThousandth)
      ? (quote.tenThousandth / 10_000) * chars.length
      : null;

  let best: { start: number; score: number; distance: number } | null = null;
  let seen = 0;
  for (
    let start = chars.indexOf(text);
    start >= 0 && seen < MAX_OCCURRENCES;
    start = chars.indexOf(text, start + 1), seen++
  ) {
    const score =
      matchingBefore(chars, start, before) + matchingAfter(chars, start + text.length, after);
    const distance = wanted === null ? 0 : Math.abs(start - wanted);
    if (!best || score > best.score || (score === best.score && distance < best.distance)) {
      best = { start, score, distance };
    }
  }
  return best ? { start: best.start, end: best.start + text.length } : null;
}
