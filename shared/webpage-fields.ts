// The lengths of a webpage's text fields, one number each for every place that makes or takes
// them: the contract (openapi/archive.yaml: `maxLength` of `title` in UploadWebpageRequest and
// PatchWebPageRequest, of `excerpt` in PatchWebPageRequest), the server's parser (which cuts a
// page's title and description to them) and the app's editor (whose fields refuse more).
// Lengths are in UTF-16 code units, as `String#length` and an input's `maxLength` count them; the
// contract counts code points, so a value within these bounds is always within the contract's.

/** The longest title of a webpage. */
export const MAX_TITLE_LENGTH = 2000;

/** The longest excerpt of a webpage. */
export const MAX_EXCERPT_LENGTH = 20_000;

/**
 * `text` cut to at most `max` code units, never between the two halves of a surrogate pair (so a
 * cut never leaves a lone surrogate).
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, Math.max(0, cut));
}
