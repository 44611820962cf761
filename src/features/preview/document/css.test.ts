import { describe, expect, it } from 'vitest';

import { rewriteDeclarations, rewriteStylesheet, wrapImport } from './css.ts';

/**
 * Rewrites every URL to `R(<url>)` and inlines every import as the text `I(<url>)`; URLs starting
 * with `drop` are refused. Records what it was asked.
 */
function rewriteAll(css: string) {
  const seen: Array<[string, 'url' | 'import']> = [];
  const out = rewriteStylesheet(css, {
    url: (url) => {
      seen.push([url, 'url']);
      return url.startsWith('drop') ? null : `R(${url})`;
    },
    import: (url) => {
      seen.push([url, 'import']);
      return url.startsWith('drop') ? null : `I(${url})`;
    },
  });
  return { out, seen };
}

describe('rewriteStylesheet', () => {
  it('rewrites unquoted and quoted url() and keeps the rest of the rule', () => {
    const { out, seen } = rewriteAll(
      `a { background: url(a.png) no-repeat, URL( "b.png" ); cursor: url('c.cur'), auto }`,
    );
    expect(out).toBe(
      'a { background: url("R(a.png)") no-repeat, url("R(b.png)"); cursor: url("R(c.cur)"), auto }',
    );
    expect(seen).toEqual([
      ['a.png', 'url'],
      ['b.png', 'url'],
      ['c.cur', 'url'],
    ]);
  });

  it('replaces a dropped url() by none', () => {
    expect(rewriteAll('a{background:url(drop.png) red}').out).toBe('a{background:none red}');
  });

  it('finds url() spelled with escapes and decodes escapes in the URL', () => {
    const { out, seen } = rewriteAll(
      'a{background:u\\72l(x\\29y.png)} b{background:\\75rl(z.png)}',
    );
    expect(seen.map(([url]) => url)).toEqual(['x)y.png', 'z.png']);
    expect(out).not.toMatch(/u\\72l|\\75rl/);
  });

  it('treats a bad url token as none and never as a URL', () => {
    const { out, seen } = rewriteAll('a{background:url(a b.png)} b{color:red}');
    expect(seen).toEqual([]);
    expect(out).toBe('a{background:none} b{color:red}');
  });

  it('inlines @import (string or url) with its conditions and drops unresolvable imports whole', () => {
    const { out, seen } = rewriteAll(
      '@charset "utf-8";\n@import "one.css" screen;\n@import url(drop.css);\n@import url(two.css) layer(x);\nb{}',
    );
    expect(seen).toEqual([
      ['one.css', 'import'],
      ['drop.css', 'import'],
      ['two.css', 'import'],
    ]);
    expect(out).toBe('\n@media screen{\nI(one.css)\n}\n\n@layer x{\nI(two.css)\n}\nb{}');
  });

  it('ignores an @import after a rule, as browsers do', () => {
    const { out, seen } = rewriteAll('a{} @import "late.css"; b{}');
    expect(seen).toEqual([]);
    expect(out).toBe('a{}  b{}');
  });

  it('closes what the stylesheet leaves open, so it can be inlined in a block', () => {
    expect(rewriteAll('a{b:calc(1px').out).toBe('a{b:calc(1px\n)}');
    expect(rewriteAll('a{content:"open').out).toBe('a{content:"open\n}');
  });

  it('keeps @namespace URLs (names, never fetched)', () => {
    const { out, seen } = rewriteAll('@namespace svg url(http://www.w3.org/2000/svg); svg|a{}');
    expect(seen).toEqual([]);
    expect(out).toContain('url("http://www.w3.org/2000/svg")');
  });

  it('treats strings in image-set() and src() as URLs', () => {
    const { out } = rewriteAll(
      'a{background-image:image-set("a.png" 1x, url(b.png) 2x);b:-webkit-image-set("drop.png" 1x);c:src("s.png")}',
    );
    expect(out).toBe(
      'a{background-image:image-set(url("R(a.png)") 1x, url("R(b.png)") 2x);b:-webkit-image-set(none 1x);c:src("R(s.png)")}',
    );
  });

  it('does not take hashes, dimensions or other strings for URLs', () => {
    const { out, seen } = rewriteAll('#url(x){} a{width:1url(y); content:"url(z)"; --u:url-ish}');
    expect(seen).toEqual([]);
    expect(out).toBe('#url(x){} a{width:1url(y); content:"url(z)"; --u:url-ish}');
  });

  it('empties comments and never lets markup or </style> through', () => {
    const { out } = rewriteAll(
      '/* </style><script>x</script> */ a{content:"</style><img src=x>"} b<img{} c\\</style>{}',
    );
    expect(out).not.toMatch(/<\/|<[a-z!?]/i);
    expect(out).toContain('/**/');
    expect(out).toContain('"\\3c /style>\\3c img src=x>"');
  });

  it('drops the CDO of CSS hidden in an HTML comment without breaking the rules', () => {
    expect(rewriteAll('<!--\na{color:red}\n-->').out).toBe(' \na{color:red}\n-->');
  });

  it('keeps media query ranges with <', () => {
    expect(rewriteAll('@media (400px <= width < 700px) { a{color:red} }').out).toBe(
      '@media (400px <= width < 700px) { a{color:red} }',
    );
  });
});

describe('rewriteDeclarations', () => {
  it('rewrites url() in a style attribute; @import there imports nothing', () => {
    const urls: string[] = [];
    const out = rewriteDeclarations(
      'background:url(a.png); --x: url("b.png"); @import "c.css";',
      (url) => {
        urls.push(url);
        return `R(${url})`;
      },
    );
    expect(out).toBe('background:url("R(a.png)"); --x: url("R(b.png)"); ');
    expect(urls).toEqual(['a.png', 'b.png']);
  });
});

describe('wrapImport', () => {
  it('nests the imported CSS in blocks for layer, supports() and media', () => {
    expect(wrapImport('a{}', ' layer supports(display: grid) print and (color)')).toBe(
      '@media print and (color){\n@supports (display: grid){\n@layer{\na{}\n}\n}\n}',
    );
    expect(wrapImport('a{}', '')).toBe('a{}');
    expect(wrapImport('a{}', 'all')).toBe('a{}');
  });
});
