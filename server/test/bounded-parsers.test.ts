// The server's reading of an upload does bounded work on any input: nesting is flattened past
// MAX_HTML_DEPTH, titles and excerpts are cut at one documented length, and every file gives a
// result or a ParseError (the API's E0001).
import fc from 'fast-check';
import { Parser, type Handler } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml } from '../../test/support/archives.ts';
import {
  hugeTitleHtml,
  nestedDivsHtml,
  sharedFrameWebarchive,
} from '../../test/support/hostile-inputs.ts';
import { MAX_EXCERPT_LENGTH, MAX_TITLE_LENGTH, truncateText } from '../../shared/webpage-fields.ts';
import { ParseError } from '../src/parse/parse-error.ts';
import {
  DepthBoundedParser,
  MAX_HTML_DEPTH,
  parseWebpage,
  type ParsedWebpage,
  type WebpageExt,
} from '../src/parse/parse-webpage.ts';
import { loadSpec } from '../src/spec.ts';

const encoder = new TextEncoder();
const utf8 = (text: string) => new Uint8Array(encoder.encode(text));

/** A lone surrogate: what a cut between the halves of a pair leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The parser's answer: a page or a ParseError (anything else fails the test). */
function outcome(bytes: Uint8Array, ext: WebpageExt): ParsedWebpage | ParseError {
  try {
    return parseWebpage(bytes, ext);
  } catch (error) {
    expect(error).toBeInstanceOf(ParseError);
    return error as ParseError;
  }
}

/** The most elements the parser had open at once while reading `html`. */
function deepestOpen(html: string): number {
  let depth = 0;
  let deepest = 0;
  const parser = new DepthBoundedParser(
    {
      onopentag() {
        deepest = Math.max(deepest, ++depth);
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  expect(depth).toBe(0);
  return deepest;
}

/** The events a parser class gives for `html`, in order. */
function events(ParserClass: typeof Parser, html: string): string[] {
  const out: string[] = [];
  const handler: Partial<Handler> = {
    onopentagname: (name) => out.push(`open ${name}`),
    onopentag: (name, attributes, implied) =>
      out.push(`tag ${name} ${JSON.stringify(attributes)} ${implied}`),
    onclosetag: (name, implied) => out.push(`close ${name} ${implied}`),
    ontext: (text) => out.push(`text ${text}`),
    oncomment: (text) => out.push(`comment ${text}`),
  };
  const parser = new ParserClass(handler, { decodeEntities: true, lowerCaseTags: true });
  parser.end(html);
  return out;
}

describe('nesting', () => {
  it(`has at most MAX_HTML_DEPTH (${MAX_HTML_DEPTH}) elements open, and one more at a time`, () => {
    // Past the limit an element is flattened: opened and closed at once (the one more), its
    // content following it.
    const divs = (n: number) => `${'<div>'.repeat(n)}x${'</div>'.repeat(n)}`;
    expect(deepestOpen(divs(MAX_HTML_DEPTH))).toBe(MAX_HTML_DEPTH);
    expect(deepestOpen(divs(MAX_HTML_DEPTH + 1))).toBe(MAX_HTML_DEPTH + 1);
    expect(deepestOpen(divs(100_000))).toBe(MAX_HTML_DEPTH + 1);
    // Foreign content, misnested and stray end tags alike.
    expect(deepestOpen('<svg>'.repeat(5000) + '<b><i>'.repeat(5000) + '</p>'.repeat(10))).toBe(
      MAX_HTML_DEPTH + 1,
    );
    // A raw-text element opens at the limit (its content stays out of the text); it holds no
    // elements, so the next ones are text.
    expect(deepestOpen(`${'<div>'.repeat(MAX_HTML_DEPTH)}${'<style>'.repeat(1000)}`)).toBe(
      MAX_HTML_DEPTH + 1,
    );
  });

  it('skips stray end tags, and reads a stray </p> as an empty paragraph, as htmlparser2 does', () => {
    const stray = `<div>a</p>b</span>c</DIV></div>d`;
    expect(events(DepthBoundedParser, stray)).toEqual(events(Parser, stray));
    expect(parseWebpage(utf8(`<title>t</title>${stray}`), 'html').text).toBe('a bc d');
    // 10 MB of stray end tags under 511 open elements: no scan of the open elements for each.
    const deep = `<p>x</p>${'<div>'.repeat(MAX_HTML_DEPTH - 1)}${'</a></p>'.repeat(1_000_000)}`;
    expect(parseWebpage(utf8(deep), 'html').text).toBe('x');
  });

  it('gives the events htmlparser2 gives when nothing is nested deeper than the limit', () => {
    const tag = fc.constantFrom(
      'div',
      'p',
      'b',
      'svg',
      'foreignObject',
      'li',
      'form',
      'br',
      'img',
      'title',
      'script',
      'table',
      'td',
      'option',
      'select',
      'image',
      'FONT',
    );
    const piece = fc.oneof(
      tag.map((name) => `<${name}>`),
      tag.map((name) => `</${name}>`),
      tag.map((name) => `<${name}/>`),
      fc.string({ maxLength: 6 }),
      fc.constantFrom('<!-- c -->', '&amp;', ' a="1"', '>'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (pieces) => {
        const html = pieces.join('');
        expect(events(DepthBoundedParser, html)).toEqual(events(Parser, html));
      }),
      { numRuns: 500 },
    );
  });

  it('reads 100,000 nested <div>s (1 MB) with their text, and a script past the limit as a script', () => {
    const page = parseWebpage(nestedDivsHtml(100_000), 'html');
    expect(page.title).toBe('Deep');
    expect(page.text).toBe('deep text after the divs');

    const deepScript = utf8(
      `<title>T</title>${'<div>'.repeat(MAX_HTML_DEPTH + 5)}<p>shown</p>` +
        `<script>hidden()</script><style>p{}</style>${'</div>'.repeat(MAX_HTML_DEPTH + 5)}<p>end</p>`,
    );
    expect(parseWebpage(deepScript, 'html').text).toBe('shown end');
  });
});

describe(`titles and excerpts: at most ${MAX_TITLE_LENGTH} and ${MAX_EXCERPT_LENGTH} characters`, () => {
  it('cuts a 5 MB <title> to MAX_TITLE_LENGTH', () => {
    expect(parseWebpage(hugeTitleHtml(5 * 1024 * 1024), 'html').title).toBe(
      'a'.repeat(MAX_TITLE_LENGTH),
    );
  });

  it('cuts at a code-point boundary, never leaving a lone surrogate', () => {
    for (const unit of ['😀', 'a😀', 'ab😀']) {
      const { title } = parseWebpage(hugeTitleHtml(50_000, unit), 'html');
      expect(title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
      expect(title.length).toBeGreaterThanOrEqual(MAX_TITLE_LENGTH - 1);
      expect(title).not.toMatch(LONE_SURROGATE);
    }
  });

  it('collapses white space before cutting (a title padded with spaces keeps its words)', () => {
    const padded = `${' \n\t'.repeat(100_000)}Real ${' '.repeat(100_000)} title`;
    expect(parseWebpage(makeHtml({ title: padded }), 'html').title).toBe('Real title');
  });

  it('cuts og:title, the description and an MHTML Subject too', () => {
    const big = 'word '.repeat(200_000);
    const html = makeHtml({
      description: big,
      extraHead: `<meta property="og:title" content="${big}">`,
    });
    const page = parseWebpage(html, 'html');
    expect(page.title).toHaveLength(MAX_TITLE_LENGTH - 1); // cut, then the trailing space trimmed
    expect(page.excerpt.length).toBeLessThanOrEqual(MAX_EXCERPT_LENGTH);
    expect(page.excerpt.length).toBeGreaterThan(MAX_EXCERPT_LENGTH - 5);

    const mhtml = makeMhtml({
      subject: 'S'.repeat(500_000),
      html: '<p>no title element</p>',
      url: 'https://example.com/',
    });
    expect(parseWebpage(mhtml, 'mhtml').title).toBe('S'.repeat(MAX_TITLE_LENGTH));
  });

  it('truncateText: a prefix of at most max code units, never a lone surrogate', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.nat({ max: 70 }),
        (text, max) => {
          const cut = truncateText(text, max);
          expect(text.startsWith(cut)).toBe(true);
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(cut.length).toBeGreaterThanOrEqual(Math.min(text.length, max) - 1);
          expect(cut).not.toMatch(LONE_SURROGATE);
        },
      ),
    );
  });

  it('are the contract’s maxLength for an upload’s title and a patch’s title and excerpt', () => {
    const schemas = loadSpec().componentSchemas as Record<
      string,
      { properties: Record<string, { maxLength?: number }> }
    >;
    expect(schemas.UploadWebpageRequest!.properties.title!.maxLength).toBe(MAX_TITLE_LENGTH);
    expect(schemas.PatchWebPageRequest!.properties.title!.maxLength).toBe(MAX_TITLE_LENGTH);
    expect(schemas.PatchWebPageRequest!.properties.excerpt!.maxLength).toBe(MAX_EXCERPT_LENGTH);
  });
});

describe('property: any file gives a page or a ParseError, with bounded fields', () => {
  const tag = fc.constantFrom(
    'div',
    'p',
    'b',
    'svg',
    'math',
    'table',
    'tr',
    'td',
    'li',
    'form',
    'script',
    'style',
    'title',
    'textarea',
    'template',
    'select',
    'option',
    'a',
    'br',
    'foreignObject',
  );
  const piece = fc.oneof(
    tag.map((name) => `<${name}>`),
    tag.map((name) => `</${name}>`),
    tag.map((name) => `<${name}/>`),
    fc.string({ maxLength: 8 }),
    fc.constantFrom('<!--', '-->', '&amp;', '&#xD800;', '<meta name="description" content="d">'),
  );
  const html = fc.oneof(
    fc.array(piece, { maxLength: 300 }).map((pieces) => pieces.join('')),
    // Deep: one element kind repeated past the limit, then anything.
    fc
      .tuple(
        tag,
        fc.integer({ min: MAX_HTML_DEPTH - 2, max: 3000 }),
        fc.array(piece, { maxLength: 50 }),
      )
      .map(([name, depth, rest]) => `<${name}>`.repeat(depth) + rest.join('')),
  );

  it('html', () => {
    fc.assert(
      fc.property(html, (text) => {
        const result = outcome(utf8(text), 'html');
        if (result instanceof ParseError) return;
        expect(result.title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
        expect(result.excerpt.length).toBeLessThanOrEqual(MAX_EXCERPT_LENGTH);
        expect(result.title).not.toMatch(LONE_SURROGATE);
      }),
      { numRuns: 300 },
    );
  });

  it('mhtml and webarchive, whole and mutated', () => {
    const mhtml = makeMhtml({ html: '<title>M</title><p>m</p>', url: 'https://m.example/' });
    const webarchive = sharedFrameWebarchive(3);
    const mutated = (base: Uint8Array) =>
      fc
        .array(fc.tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 8,
        })
        .map((edits) => {
          const copy = base.slice();
          for (const [index, value] of edits) copy[index] = value;
          return copy;
        });
    fc.assert(
      fc.property(mutated(mhtml), mutated(webarchive), (m, w) => {
        outcome(m, 'mhtml');
        const result = outcome(w, 'webarchive');
        if (!(result instanceof ParseError)) {
          expect(result.title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
        }
      }),
      { numRuns: 500 },
    );
  });
});
