// Any search text gets an answer (200, or 400 when there is nothing to search for), never a 500:
// the full-text query is built from the terms, whatever characters they hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../src/store/search.ts';
import { call, fetchApiError, ok } from './support/api.ts';
import { useSeededServer, type SeedPage } from './support/seed.ts';

const PAGES: SeedPage[] = [
  {
    key: 'abc',
    title: 'abc notes',
    ext: 'html',
    text: 'abcdef and "quoted" AND OR NEAR words',
    addedAt: 1_000,
  },
  {
    key: 'ctl',
    title: 'Control',
    ext: 'html',
    text: 'a page about ab* (parens) ^caret col:on',
    addedAt: 2_000,
  },
];

const archive = useSeededServer(PAGES);

/** Searches `q` through the API (the answer checked against the contract). */
async function searchStatus(q: string): Promise<number> {
  const answer = await call(archive, 'searchWebpages', { query: { q } });
  if (answer.status !== 200 && answer.status !== 400) {
    throw new Error(`q=${JSON.stringify(q)}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.status;
}

describe('search text with control characters', () => {
  it('a NUL after a word searches the word (it was a 500 from FTS5)', async () => {
    const results = await ok(archive, 'searchWebpages', { query: { q: 'abc\u0000' } });
    expect(archive.keys(results.webpages)).toEqual(['abc']);
    // Raw, as a client sends it.
    const raw = await fetch(`${archive.url}/public/api/v1/search/webpages?q=abc%00`, {
      headers: { authorization: `Bearer ${archive.token}` },
    });
    expect(raw.status).toBe(200);
  });

  it('control characters separate terms; only control characters is nothing to search for', async () => {
    expect(parseQuery('abc\u0000def\u0007ghi\u001f\u007f\u0085jkl').include).toEqual([
      'abc',
      'def',
      'ghi',
      'jkl',
    ]);
    expect(parseQuery('"ab\u0000cd"').include).toEqual(['ab cd']);
    expect(parseQuery('\u0000\u0001 \u0000').include).toEqual([]);
    const answer = await fetchApiError(archive, '/public/api/v1/search/webpages?q=%00%01%00', {
      headers: { authorization: `Bearer ${archive.token}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/something to search for/);
  });

  it('invalid percent-encodings and UTF-8 get a 200 or a 400', async () => {
    for (const q of ['%', '%FF', '%ED%A0%80', '%C0%80', '%00%00%00%00', 'a%00b%00c', '%22%00%22']) {
      const response = await fetch(`${archive.url}/public/api/v1/search/webpages?q=${q}`, {
        headers: { authorization: `Bearer ${archive.token}` },
      });
      expect([200, 400], `q=${q}`).toContain(response.status);
    }
  });
});

describe('property: any q is a 200 or a 400, never a 500', () => {
  const operator = fc.constantFrom(
    'AND',
    'OR',
    'NOT',
    'NEAR',
    'NEAR(',
    '*',
    '^',
    ':',
    '(',
    ')',
    '"',
    '""',
    "'",
    '-',
    '+',
    '{',
    '}',
    'title:',
    'text:',
    '\u0000',
    '\u0001',
    '\u001f',
    '\u007f',
    '\u0085',
    '\u2028',
    '\ufeff',
    '\ud800',
    '\udc00',
    '%',
    '_',
    '\\',
    ' ',
  );
  const q = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc
      .array(fc.oneof(operator, fc.string({ unit: 'binary', maxLength: 6 })), {
        minLength: 1,
        maxLength: 20,
      })
      .map((parts) => parts.join(''))
      .filter((text) => text.length > 0),
  );

  it('over the full Unicode range, control characters, quotes and FTS5 syntax', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(q, async (text) => {
        statuses.add(await searchStatus(text));
      }),
      { numRuns: 300 },
    );
    expect(statuses.has(200)).toBe(true);
  });
});
