// Content negotiation on the Accept header (RFC 9110 §12.5.1), for the few operations that can
// answer in more than one media type. Decided on the parsed media ranges and their weights, the most
// specific range that matches each offer setting its weight; a range given twice keeps its first.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseRange(text: string): MediaRange | null {
  const [range = '', ...parameters] = text.split(';');
  const [type, subtype, ...rest] = range.trim().toLowerCase().split('/');
  if (type === undefined || subtype === undefined || rest.length > 0 || !type || !subtype) {
    return null;
  }
  let q = 1;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=', 2).map((part) => part.trim());
    if (name.toLowerCase() !== 'q') continue;
    // A weight is 0 to 1 with at most three decimals; anything else makes the range void.
    if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) return null;
    q = Number(value);
  }
  return { type, subtype, q };
}

/** How specific a range is for an offer: 3 exact, 2 `type/*`, 1 `*\/*`, 0 not matching. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/**
 * The offer (in `offers` order of preference, as `type/subtype`) the Accept header weighs most, or
 * the first offer when the header is absent or says nothing usable; `null` when it refuses all.
 */
export function negotiate(accept: string | undefined, offers: readonly string[]): string | null {
  const ranges = (accept ?? '')
    .split(',')
    .map(parseRange)
    .filter((range): range is MediaRange => range !== null);
  if (ranges.length === 0) return offers[0] ?? null;
  let best: string | null = null;
  let bestQ = 0;
  for (const offer of offers) {
    const [type = '', subtype = ''] = offer.split('/');
    let matched: MediaRange | undefined;
    let matchedSpecificity = 0;
    for (const range of ranges) {
      const level = specificity(range, type, subtype);
      if (level > matchedSpecificity) {
        matched = range;
        matchedSpecificity = level;
      }
    }
    const q = matched?.q ?? 0;
    if (q > bestQ) {
      best = offer;
      bestQ = q;
    }
  }
  return best;
}
