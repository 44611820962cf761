// Pages for reader mode's tests (unit and Playwright): a long article with headings, a figure and
// links; a right-to-left (Hebrew) article; and an app-like page of links and forms with no
// article. Plain strings, no Node API: the jsdom unit tests use them too.

const LATIN = [
  'archive', 'reader', 'history', 'library', 'chapter', 'evidence', 'quiet', 'river', 'harbour',
  'measure', 'pattern', 'garden', 'letter', 'window', 'morning', 'journey', 'signal', 'thread',
  'lantern', 'meadow', 'season', 'compass', 'silver', 'valley', 'weather', 'engine', 'paper',
]; // prettier-ignore

const HEBREW = [
  'שלום', 'עולם', 'ספר', 'בית', 'ילד', 'מים', 'אור', 'יום', 'לילה', 'דרך', 'עיר', 'ארץ', 'זמן',
  'אדם', 'לב', 'מילה', 'שפה', 'קריאה', 'כתיבה', 'מאמר', 'ים', 'הר', 'שמש', 'רוח', 'גשם',
]; // prettier-ignore

/** A deterministic paragraph of about `words` words, in sentences with commas. */
function paragraph(vocabulary: readonly string[], seed: number, words: number): string {
  const out: string[] = [];
  for (let index = 0; index < words; index++) {
    let word = vocabulary[(seed * 7 + index * 13 + ((index * index) % 11)) % vocabulary.length]!;
    if (index % 12 === 0) word = word[0]!.toUpperCase() + word.slice(1);
    const end = index % 12 === 11 || index === words - 1 ? '.' : index % 5 === 4 ? ',' : '';
    out.push(word + end);
  }
  return out.join(' ');
}

export interface LongArticleOptions {
  /** The figure's image source (an archived resource's URL, or an inline data: URL). */
  imageSrc: string;
  /** A URL on "the live web" the page also points at (its script, its tracking pixel). */
  liveOrigin: string;
  /** Paragraphs (about 120 words each); 36 by default, over 4,000 words. */
  paragraphs?: number;
}

export const LONG_ARTICLE = {
  title: 'The long history of quiet archives',
  byline: 'By Ada Keeper',
  firstHeading: 'Chapter 1: Where the river starts',
  linkText: 'the source notes',
  linkHref: 'https://example.org/notes',
  caption: 'A harbour at morning, from the archive.',
} as const;

/** The `<body>` of a long article inside an app-like page (navigation, aside, footer). */
export function longArticleBody(options: LongArticleOptions): string {
  const { imageSrc, liveOrigin, paragraphs = 36 } = options;
  const parts: string[] = [];
  for (let index = 0; index < paragraphs; index++) {
    if (index % 6 === 0) {
      const heading =
        index === 0
          ? LONG_ARTICLE.firstHeading
          : `Chapter ${index / 6 + 1}: ${LATIN[index % LATIN.length]}`;
      parts.push(`<h2>${heading}</h2>`);
    }
    if (index === 2) {
      parts.push(
        `<figure><img id="figure-image" src="${imageSrc}" alt="A harbour at morning" width="40" height="30">` +
          `<figcaption>${LONG_ARTICLE.caption}</figcaption></figure>`,
      );
    }
    const link =
      index === 1
        ? ` See <a href="${LONG_ARTICLE.linkHref}" onclick="window.top.__pwned = 1">${LONG_ARTICLE.linkText}</a>.`
        : '';
    parts.push(`<p>${paragraph(LATIN, index, 120)}${link}</p>`);
  }
  return (
    `<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>` +
    `<article><h1>${LONG_ARTICLE.title}</h1>` +
    `<p class="byline"><span class="author" rel="author">${LONG_ARTICLE.byline}</span></p>` +
    parts.join('') +
    `<img src="${liveOrigin}/pixel.png" alt="">` +
    `<script src="${liveOrigin}/tracker.js"></script>` +
    `</article><footer><p>© Quiet Archives</p></footer>`
  );
}

export const RTL_ARTICLE = {
  title: 'מאמר על קריאה וכתיבה',
  firstWords: 'שלום',
} as const;

/** The `<body>` of a Hebrew article (the page's `<html>` says `dir="rtl" lang="he"`). */
export function rtlArticleBody(paragraphs = 12): string {
  const parts = [`<h1>${RTL_ARTICLE.title}</h1>`];
  for (let index = 0; index < paragraphs; index++) {
    parts.push(`<p>${paragraph(HEBREW, index, 90)}</p>`);
  }
  return `<article>${parts.join('')}</article>`;
}

export const APP_PAGE = { title: 'Account settings · Example app' } as const;

/** An app-like page: navigation, a form, short labels and buttons; no article. */
export function appPageBody(): string {
  const links = Array.from(
    { length: 24 },
    (_, index) =>
      `<li><a href="https://app.example.com/section/${index}">Section ${index}</a></li>`,
  ).join('');
  return (
    `<header><a href="https://app.example.com/">Example app</a></header>` +
    `<nav><ul>${links}</ul></nav>` +
    `<main><h1>Account settings</h1>` +
    `<form><label>Name <input name="name"></label><label>Email <input name="email"></label>` +
    `<label><input type="checkbox" name="news"> Newsletter</label><button>Save</button></form>` +
    `<ul><li><a href="https://app.example.com/billing">Billing</a></li>` +
    `<li><a href="https://app.example.com/security">Security</a></li></ul></main>`
  );
}

/**
 * An article written in short paragraphs (each under the 140 characters Readability's quick test
 * looks for): `isProbablyReaderable` alone says no, the parse finds the article.
 */
export function shortParagraphsBody(paragraphs = 30): string {
  const parts = ['<h1>Notes in short lines</h1>'];
  for (let index = 0; index < paragraphs; index++) {
    parts.push(`<p>${paragraph(LATIN, index, 16)}</p>`);
  }
  return `<main><div class="notes">${parts.join('')}</div></main>`;
}
