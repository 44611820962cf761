export interface Segment {
  type: 'text' | 'mark';
  content: string;
}

/** How many characters of page text a search result shows. */
export const SNIPPET_LENGTH = 200;
/** How much text to show before the first match. */
const LEAD = 60;

/** The text cut into segments, the terms' occurrences (case-insensitive) as `mark`s. */
export function markSegments(text: string, terms: readonly string[]): Segment[] {
  const segments: Segment[] = [];
  const pattern = termsPattern(terms);
  let last = 0;
  if (pattern !== undefined) {
    for (const match of text.matchAll(pattern)) {
      if (match.index > last)
        segments.push({ type: 'text', content: text.slice(last, match.index) });
      segments.push({ type: 'mark', content: match[0] });
      last = match.index + match[0].length;
    }
  }
  if (last < text.length || segments.length === 0) {
    segments.push({ type: 'text', content: text.slice(last) });
  }
  return segments.filter((segment, index) => segment.content !== '' || index === 0);
}

/**
 * About SNIPPET_LENGTH characters of the text around the first match (white space collapsed),
 * with '…' where it was cut, as segments.
 */
export function snippetSegments(text: string, terms: readonly string[]): Segment[] {
  const pattern = termsPattern(terms);
  const first = pattern === undefined ? undefined : text.search(stripGlobal(pattern));
  const matchAt = first === undefined || first < 0 ? 0 : first;
  const start = safeIndex(text, Math.max(0, matchAt - LEAD));
  // Read more than needed: collapsing white space only makes it shorter.
  const raw = text.slice(start, safeIndex(text, start + SNIPPET_LENGTH * 4));
  const collapsed = raw.replace(/\s+/gu, ' ');
  const leading = start === 0 ? collapsed.trimStart() : collapsed;
  let snippet = leading.slice(0, safeIndex(leading, SNIPPET_LENGTH));
  const cutEnd = snippet.length < leading.length || start + raw.length < text.length;
  snippet = snippet.trimEnd();
  const withEllipses = `${start > 0 ? '…' : ''}${snippet}${cutEnd && snippet !== '' ? '…' : ''}`;
  return markSegments(withEllipses, terms);
}

/**
 * One pattern for all the terms, longest first, matching as the index does: without case, a
 * letter with or without its accents (precomposed, or followed by combining marks), and the
 * words of a phrase across any white space.
 */
function termsPattern(terms: readonly string[]): RegExp | undefined {
  // A term of combining marks only folds to nothing: it would match everywhere.
  const sources = [...terms]
    .sort((a, b) => b.length - a.length)
    .map(termSource)
    .filter((source) => source !== '');
  if (sources.length === 0) return undefined;
  return new RegExp(sources.join('|'), 'giu');
}

function termSource(term: string): string {
  return term
    .split(/\s+/u)
    .filter((word) => word !== '')
    .map((word) => [...fold(word)].map(charSource).join(''))
    .join('\\s+');
}

/** Lower case without accents (NFD, combining marks removed). */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function charSource(char: string): string {
  const variants = accentedVariants().get(char);
  if (variants === undefined) return escapeRegExp(char);
  return `[${escapeRegExp(char)}${variants}]\\p{M}*`;
}

let variantsByBase: Map<string, string> | undefined;

/**
 * For each base letter, its precomposed forms with accents (Latin-1, Latin Extended-A/B and
 * Latin Extended Additional), as the inside of a character class; built once.
 */
function accentedVariants(): Map<string, string> {
  if (variantsByBase !== undefined) return variantsByBase;
  const map = new Map<string, string>();
  for (const [from, to] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ] as const) {
    for (let code = from; code <= to; code++) {
      const char = String.fromCodePoint(code);
      const base = fold(char);
      if ([...base].length !== 1 || base === char.toLowerCase()) continue;
      map.set(base, (map.get(base) ?? '') + char);
    }
  }
  variantsByBase = map;
  return map;
}

function stripGlobal(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.replace('g', ''));
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** An index moved back so that it does not split a surrogate pair. */
function safeIndex(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}
