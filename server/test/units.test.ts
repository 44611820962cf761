import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, decodedLength } from './support/base64-strict.ts';
import { hostOf, parseHttpLink } from '../src/links.ts';
import { markSegments, snippetSegments } from '../src/store/search-snippets.ts';
import { parseQuery } from '../src/store/search.ts';
import { startOf } from '../src/store/time-ranges.ts';
import { viewFilterSql } from '../src/store/view-filters.ts';
import { uploadBodyLimit } from '../src/upload/store-upload.ts';
import { normalizeLabels } from '../src/routes/webpages.ts';

describe('decodeBase64Strict', () => {
  it('decodes padded standard base64', () => {
    for (const length of [1, 2, 3, 4, 5, 100]) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37) & 0xff));
      const text = bytes.toString('base64');
      expect(decodeBase64Strict(text)?.equals(bytes)).toBe(true);
      expect(decodedLength(text)).toBe(length);
    }
  });

  it('refuses anything else', () => {
    for (const text of [
      'Zg',
      'Zg=',
      'Zm9v\n',
      'Zm9v YmFy',
      'Zm-v',
      'Zm_v',
      'Zh==',
      'Zm9=',
      '=Zm9',
      'Zg==Zg==',
      '****',
    ]) {
      expect(decodeBase64Strict(text), text).toBeUndefined();
    }
  });
});

describe('links', () => {
  it('accepts absolute http(s) URLs and finds the host with its port', () => {
    expect(parseHttpLink('https://Example.com:8443/a?b#c')).toEqual({
      link: 'https://example.com:8443/a?b#c',
      host: 'example.com:8443',
    });
    expect(parseHttpLink('http://example.com:80/')?.host).toBe('example.com');
    expect(parseHttpLink(' https://x.example ')?.link).toBe('https://x.example/');
  });

  it('refuses the rest', () => {
    for (const value of [
      '',
      'example.com',
      '/a',
      'file:///etc/passwd',
      'data:text/html,x',
      'http://',
    ]) {
      expect(parseHttpLink(value), value).toBeUndefined();
    }
    expect(hostOf(null)).toBeNull();
    expect(hostOf('not a url')).toBeNull();
    expect(hostOf('https://A.example:1/')).toBe('a.example:1');
  });
});

describe('labels', () => {
  it('trims, deduplicates and keeps the order', () => {
    expect(normalizeLabels([' a', 'b ', 'a', ' b ', 'c'])).toEqual(['a', 'b', 'c']);
    expect(() => normalizeLabels(['ok', ' \t'])).toThrow(/labels\/1 must not be blank/);
  });
});

describe('search snippets', () => {
  it('splits queries into words', () => {
    expect(parseQuery('  hello   world hello ').include).toEqual(['hello', 'world']);
    expect(parseQuery('   ').include).toEqual([]);
  });

  it('reads quoted phrases and exclusions, the rest as text', () => {
    expect(parseQuery('"night  trains" -rain -"slow boats" go')).toEqual({
      include: ['night trains', 'go'],
      exclude: ['rain', 'slow boats'],
    });
    // No closing quote: the quote is text. A lone dash is text.
    expect(parseQuery('"quo')).toEqual({ include: ['"quo'], exclude: [] });
    expect(parseQuery('a - b')).toEqual({ include: ['a', '-', 'b'], exclude: [] });
    expect(parseQuery('"a" "b')).toEqual({ include: ['a', '"b'], exclude: [] });
    // Exclusions alone are searched as written.
    expect(parseQuery('-rain -"x y"')).toEqual({ include: ['-rain', '-x y'], exclude: [] });
    expect(parseQuery('"" " "').include).toEqual([]);
    expect(parseQuery('x-ray -x-ray')).toEqual({ include: ['x-ray'], exclude: ['x-ray'] });
  });

  it('marks terms without case or accents, phrases across white space', () => {
    expect(markSegments('Flâner au Café', ['flaner', 'cafe'])).toEqual([
      { type: 'mark', content: 'Flâner' },
      { type: 'text', content: ' au ' },
      { type: 'mark', content: 'Café' },
    ]);
    // The query's accents are folded too; decomposed text (e + U+0301) is marked whole.
    expect(markSegments('cafe\u0301 and cafe', ['café'])).toEqual([
      { type: 'mark', content: 'cafe\u0301' },
      { type: 'text', content: ' and ' },
      { type: 'mark', content: 'cafe' },
    ]);
    expect(markSegments('the night\n trains left', ['night trains'])).toEqual([
      { type: 'text', content: 'the ' },
      { type: 'mark', content: 'night\n trains' },
      { type: 'text', content: ' left' },
    ]);
    // A term of combining marks only marks nothing.
    expect(markSegments('abc', ['\u0301'])).toEqual([{ type: 'text', content: 'abc' }]);
  });

  it('marks every occurrence, ignoring case', () => {
    expect(markSegments('Cat and cat and CAT', ['cat'])).toEqual([
      { type: 'mark', content: 'Cat' },
      { type: 'text', content: ' and ' },
      { type: 'mark', content: 'cat' },
      { type: 'text', content: ' and ' },
      { type: 'mark', content: 'CAT' },
    ]);
    expect(markSegments('a.b', ['.'])).toEqual([
      { type: 'text', content: 'a' },
      { type: 'mark', content: '.' },
      { type: 'text', content: 'b' },
    ]);
    expect(markSegments('nothing', ['x'])).toEqual([{ type: 'text', content: 'nothing' }]);
    expect(markSegments('', ['x'])).toEqual([{ type: 'text', content: '' }]);
  });

  it('cuts about 200 characters around the first match, white space collapsed', () => {
    const text = `${'a '.repeat(300)}needle${'\n b'.repeat(300)}`;
    const segments = snippetSegments(text, ['needle']);
    const joined = segments.map((segment) => segment.content).join('');
    expect(joined.length).toBeLessThanOrEqual(202);
    expect(joined).toMatch(/^…a a/);
    expect(joined).toMatch(/b b…$/);
    expect(joined).not.toContain('\n');
    expect(segments.filter((segment) => segment.type === 'mark')).toHaveLength(1);
  });

  it('starts at the beginning when the match is early or missing', () => {
    expect(snippetSegments('  Short text.  ', ['short'])).toEqual([
      { type: 'mark', content: 'Short' },
      { type: 'text', content: ' text.' },
    ]);
    const start = snippetSegments(`${'word '.repeat(100)}`, ['absent']);
    expect(start[0]?.content.startsWith('word')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(300);
    const joined = snippetSegments(text, ['x'])
      .map((segment) => segment.content)
      .join('');
    expect(joined).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(joined).not.toMatch(/(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('time ranges (server local time)', () => {
  // Wednesday 17 June 2026, 12:00 local.
  const now = new Date(2026, 5, 17, 12).getTime();
  it('starts today, yesterday, this and last week (Monday), this and last month', () => {
    expect(startOf(0, now)).toBe(new Date(2026, 5, 17).getTime());
    expect(startOf(3, now)).toBe(new Date(2026, 5, 16).getTime());
    expect(startOf(1, now)).toBe(new Date(2026, 5, 15).getTime());
    expect(startOf(4, now)).toBe(new Date(2026, 5, 8).getTime());
    expect(startOf(2, now)).toBe(new Date(2026, 5, 1).getTime());
    expect(startOf(5, now)).toBe(new Date(2026, 4, 1).getTime());
  });

  it('treats Sunday as the end of the week and crosses years', () => {
    const sunday = new Date(2026, 5, 21, 23).getTime();
    expect(startOf(1, sunday)).toBe(new Date(2026, 5, 15).getTime());
    const newYear = new Date(2027, 0, 1, 9).getTime();
    expect(startOf(3, newYear)).toBe(new Date(2026, 11, 31).getTime());
    expect(startOf(5, newYear)).toBe(new Date(2026, 11, 1).getTime());
  });
});

describe('view filters compile to SQL', () => {
  it('binds every value as a parameter', () => {
    const compiled = viewFilterSql(
      [
        { type: 2, key: 'host', operator: true, rightOperand: ["x'); DROP TABLE webpages; --"] },
        { type: 2, key: 'label', operator: 1, rightOperand: ["'"] },
      ],
      'or',
      0,
    );
    expect(compiled.sql).not.toContain('DROP');
    expect(compiled.params).toEqual(["x'); drop table webpages; --", "'"]);
    expect(compiled.sql).toMatch(/ OR /);
  });

  it('selects every live page without filters', () => {
    expect(viewFilterSql([], 'or', 0)).toEqual({ sql: 'w.deleted = 0', params: [] });
  });
});

describe('uploadBodyLimit', () => {
  it('fits the base64 of the largest file plus the other fields', () => {
    const max = 1024 * 1024;
    expect(uploadBodyLimit(max)).toBeGreaterThanOrEqual(Math.ceil(max / 3) * 4 + 20_000);
    expect(uploadBodyLimit(max)).toBeLessThan(max * 2);
  });
});
