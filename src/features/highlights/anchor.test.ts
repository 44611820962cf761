import { describe, expect, it } from 'vitest';

import { APP_TEXT_ATTRIBUTE } from '../../lib/page-text.ts';
import { findQuote, indexText, quoteOf, rangeOf, spanOf, stripWhitespace } from './anchor.ts';

function page(body: string): Document {
  return new DOMParser().parseFromString(
    `<!doctype html><html><head><title>T</title><style>p{color:red}</style></head><body>${body}</body></html>`,
    'text/html',
  );
}

function selectText(doc: Document, text: string, occurrence = 0): Range {
  // The DOM range of the `occurrence`-th `text` in the page, found through the index.
  const index = indexText(doc);
  const stripped = stripWhitespace(text);
  let start = -1;
  for (let seen = 0; seen <= occurrence; seen++) start = index.chars.indexOf(stripped, start + 1);
  if (start < 0) throw new Error(`no ${text}`);
  return rangeOf(doc, index, { start, end: start + stripped.length });
}

describe('anchoring highlights by quote and context', () => {
  it("leaves out the text the app wrote into the document (reader mode's header)", () => {
    const doc = page(
      `<article><header ${APP_TEXT_ATTRIBUTE}><h1>Title</h1><p>5 min read</p></header>` +
        '<p>The article starts here.</p></article>',
    );
    const index = indexText(doc);
    expect(index.chars).toBe(stripWhitespace('The article starts here.'));
    // A selection inside the header quotes nothing: no toolbar, no highlight the page lacks.
    const inHeader = doc.createRange();
    inHeader.selectNodeContents(doc.querySelector('header p')!);
    expect(spanOf(index, inHeader)).toBeNull();
    // One from the header into the article quotes the article's part, with the article's context.
    const across = doc.createRange();
    across.setStart(doc.querySelector('h1')!.firstChild!, 0);
    across.setEnd(doc.querySelector('article > p')!.firstChild!, 'The article'.length);
    const span = spanOf(index, across)!;
    expect(quoteOf(index, span, 'Title\n5 min read\nThe article')).toMatchObject({
      text: 'The article',
      textBefore: '',
      textAfter: ' starts here.',
    });
  });

  it('quotes text across elements and finds it again in a fresh copy of the page', () => {
    const html = '<p>The <b>quick brown</b> fox</p>\n<p>jumps over <i>the lazy</i> dog.</p>';
    const doc = page(html);
    const index = indexText(doc);
    const range = doc.createRange();
    const bold = doc.querySelector('b')!.firstChild!;
    const italic = doc.querySelector('i')!.firstChild!;
    range.setStart(bold, 6); // "brown…"
    range.setEnd(italic, 3); // "…the"
    const span = spanOf(index, range)!;
    const quote = quoteOf(index, span, 'brown fox\n\njumps over the');
    expect(quote).toEqual({
      text: 'brown fox\n\njumps over the',
      textBefore: 'The quick ',
      textAfter: ' lazy dog.',
      tenThousandth: Math.round((8 / index.chars.length) * 10_000),
    });

    const again = page(html);
    const againIndex = indexText(again);
    const found = findQuote(againIndex, quote);
    expect(found).toEqual(span);
    expect(rangeOf(again, againIndex, found!).toString()).toBe('brown fox\njumps over the');
  });

  it('takes the page text as the quote when the selected text differs from it', () => {
    const doc = page('<p>one   two</p><p>three</p>');
    const index = indexText(doc);
    const span = spanOf(index, selectText(doc, 'twothree'))!;
    expect(quoteOf(index, span, 'something else').text).toBe('twothree');
    expect(quoteOf(index, span).text).toBe('twothree');
  });

  it('ignores scripts, styles and the title', () => {
    const doc = page('<p>alpha</p><script>var alpha = 1</script><p>beta</p>');
    expect(indexText(doc).chars).toBe('alphabeta');
  });

  it('leaves out nested excluded elements and keeps the text after each, mapped to its node', () => {
    const doc = page(
      '<p>al pha</p><noscript><p>x<style>y</style></p>z</noscript>' +
        `<p>be\u00a0ta\u2003</p><div ${APP_TEXT_ATTRIBUTE}><noscript>w</noscript>v</div>` +
        '<svg><title>u</title><text>ga</text></svg><template>t</template>mma',
    );
    const index = indexText(doc);
    expect(index.chars).toBe('alphabetagamma');
    // Each character leads back to the text node and offset it was read from.
    const read = Array.from(index.chars, (_, at) =>
      index.nodes[index.nodeOf[at]!]!.data.charAt(index.offsetOf[at]!),
    ).join('');
    expect(read).toBe('alphabetagamma');
    expect(index.nodes.map((node) => node.data)).toEqual([
      'al pha',
      'be\u00a0ta\u2003',
      'ga',
      'mma',
    ]);
  });

  it('chooses among repeated quotes the one whose context matches', () => {
    const doc = page(
      '<p>Rule one: be kind. Rule two: be brief.</p><p>Then again: be kind, said the second rule.</p>',
    );
    const index = indexText(doc);
    const second = spanOf(index, selectText(doc, 'be kind', 1))!;
    const quote = quoteOf(index, second);
    expect(quote.textBefore.endsWith('Then again: ')).toBe(true);
    expect(findQuote(index, quote)).toEqual(second);

    const first = spanOf(index, selectText(doc, 'be kind', 0))!;
    expect(findQuote(index, quoteOf(index, first))).toEqual(first);
  });

  it('finds a quote whose context changed, by the part of the context that still matches', () => {
    const doc = page('<p>Intro. A shared phrase here. Middle. A shared phrase there.</p>');
    const index = indexText(doc);
    const second = spanOf(index, selectText(doc, 'A shared phrase', 1))!;
    // HamsterBase-made: its context was taken from a slightly different copy of the page.
    const quote = {
      text: 'A shared phrase',
      textBefore: 'something else entirely. Middle. ',
      textAfter: ' there, and more text that is gone',
    };
    expect(findQuote(index, quote)).toEqual(second);
  });

  it('chooses by position when the context says nothing', () => {
    const doc = page(`<p>${'word filler '.repeat(50)}</p>`);
    const index = indexText(doc);
    const near = (tenThousandth: number) =>
      findQuote(index, { text: 'word', textBefore: '', textAfter: '', tenThousandth });
    expect(near(0)!.start).toBe(0);
    const last = index.chars.lastIndexOf('word');
    expect(near(10_000)!.start).toBe(last);
    expect(near(undefined as unknown as number)!.start).toBe(0);
  });

  it('matches whatever whitespace the quote and the page carry', () => {
    const doc = page('<p>line\none</p><p>line two</p>');
    const index = indexText(doc);
    const found = findQuote(index, { text: 'line one line', textBefore: '', textAfter: ' two' });
    expect(found).toEqual({ start: 0, end: 'lineoneline'.length });
  });

  it('answers null for a quote that is not in the page, or an empty one', () => {
    const doc = page('<p>Nothing to see.</p>');
    const index = indexText(doc);
    expect(findQuote(index, { text: 'missing words', textBefore: '', textAfter: '' })).toBeNull();
    expect(findQuote(index, { text: '  \n ', textBefore: 'x', textAfter: 'y' })).toBeNull();
    expect(spanOf(index, doc.createRange())).toBeNull();
  });

  it('reads the body through the prototypes when the page shadows document.body', () => {
    const doc = page('<img name="body"><p>real text</p>');
    expect(indexText(doc).chars).toBe('realtext');
  });
});
