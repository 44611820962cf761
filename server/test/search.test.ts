import { describe, expect, it } from 'vitest';
import { fails, fetchApiError, ok, upload } from './support/api.ts';
import { fileFor, useSeededServer, type SeedPage } from './support/seed.ts';
import { startTestServer } from './support/test-server.ts';

const LONG_TEXT = `${'Filler words about nothing in particular. '.repeat(20)}The quokka smiled at the camera. ${'More filler text follows here. '.repeat(20)}`;

const PAGES: SeedPage[] = [
  {
    key: 'title',
    title: 'Quokka facts',
    ext: 'html',
    text: 'Small marsupials of Rottnest.',
    liked: true,
    labels: ['animals'],
    addedAt: 1_000,
  },
  {
    key: 'body',
    title: 'Island travel',
    ext: 'mhtml',
    text: LONG_TEXT,
    link: 'https://travel.example/rottnest',
    addedAt: 2_000,
  },
  {
    key: 'ja',
    title: '日本語のページ',
    ext: 'html',
    text: '東京都の天気は晴れです。明日は雨が降るでしょう。',
    labels: ['日本'],
    addedAt: 3_000,
  },
  {
    key: 'zh',
    title: '中文页面',
    ext: 'webarchive',
    text: '我们今天去北京看长城。',
    addedAt: 4_000,
  },
  {
    key: 'cn',
    title: '这是中文网页',
    ext: 'html',
    text: '正文里没有那个词。',
    read: true,
    addedAt: 4_500,
  },
  {
    key: 'many',
    title: 'Field log',
    ext: 'html',
    text: 'quokka quokka quokka quokka quokka quokka quokka quokka everywhere in the body.',
    addedAt: 4_800,
  },
  {
    key: 'other',
    title: 'Unrelated',
    ext: 'html',
    text: 'Nothing to see: cats and dogs.',
    addedAt: 5_000,
  },
];

const archive = useSeededServer(PAGES);

async function search(query: Record<string, string | number | string[]>) {
  return (await ok(archive, 'searchWebpages', { query: query as Record<string, string> })).webpages;
}

describe('searchWebpages', () => {
  it('finds words in titles and text, title matches first', async () => {
    const results = await search({ q: 'quokka' });
    // A title match ranks above body-only matches, even a body full of the word.
    expect(archive.keys(results)).toEqual(['title', 'many', 'body']);
    const [inTitle, , inBody] = results;
    expect(inTitle?.title).toEqual([
      { type: 'mark', content: 'Quokka' },
      { type: 'text', content: ' facts' },
    ]);
    expect(inTitle?.labels).toEqual(['animals']);
    expect(inTitle).toMatchObject({
      liked: true,
      read: false,
      ext: 'html',
      annotateCount: 0,
      link: null,
    });
    expect(inBody?.link).toBe('https://travel.example/rottnest');
  });

  it('cuts a snippet of about 200 characters around the first match', async () => {
    const [result] = await search({ q: 'quokka', ext: 'mhtml' });
    expect(result?.title).toEqual([{ type: 'text', content: 'Island travel' }]);
    const content = result?.content ?? [];
    const text = content.map((segment) => segment.content).join('');
    expect(text.length).toBeLessThanOrEqual(202);
    expect(text.length).toBeGreaterThan(150);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(content.filter((segment) => segment.type === 'mark')).toEqual([
      { type: 'mark', content: 'quokka' },
    ]);
    expect(text).toContain('The quokka smiled');
  });

  it('needs every word', async () => {
    expect(archive.keys(await search({ q: 'quokka camera' }))).toEqual(['body']);
    expect(archive.keys(await search({ q: 'QUOKKA   Camera ' }))).toEqual(['body']);
    expect(await search({ q: 'quokka zebra' })).toEqual([]);
  });

  it('finds Japanese and Chinese without spaces, long and short queries', async () => {
    expect(archive.keys(await search({ q: '天気は' }))).toEqual(['ja']);
    expect(archive.keys(await search({ q: '長城' }))).toEqual([]);
    expect(archive.keys(await search({ q: '长城' }))).toEqual(['zh']);
    expect(archive.keys(await search({ q: '北京' }))).toEqual(['zh']);
    expect(archive.keys(await search({ q: '雨' }))).toEqual(['ja']);
    expect(archive.keys(await search({ q: '日本語' }))).toEqual(['ja']);
    // A two-character word inside a title without spaces.
    const [cn, ...rest] = await search({ q: '中文' });
    expect(rest.map((result) => result.id).sort()).toEqual([archive.id('zh')]);
    expect(cn?.id).toBe(archive.id('cn'));
    expect(cn?.title).toEqual([
      { type: 'text', content: '这是' },
      { type: 'mark', content: '中文' },
      { type: 'text', content: '网页' },
    ]);
    expect(archive.keys(await search({ q: '中文网页' }))).toEqual(['cn']);
    expect(archive.keys(await search({ q: '中文 长城' }))).toEqual(['zh']);
    const [ja] = await search({ q: '晴れ' });
    expect(ja?.content).toContainEqual({ type: 'mark', content: '晴れ' });
    expect(ja?.labels).toEqual(['日本']);
  });

  it('treats short words and special characters literally', async () => {
    expect(archive.keys(await search({ q: 'of' }))).toEqual(['title']);
    expect(await search({ q: '%' })).toEqual([]);
    expect(await search({ q: '"quo' })).toEqual([]);
    expect(archive.keys(await search({ q: 'cats:' }))).toEqual([]);
    expect(archive.keys(await search({ q: 'see:' }))).toEqual(['other']);
    // FTS5 operators are words like any other ("nothing" contains "not").
    expect(archive.keys(await search({ q: 'NOT quokka' }))).toEqual(['body']);
    expect(archive.keys(await search({ q: 'quokka*' }))).toEqual([]);
  });

  it('takes the list filters and paging', async () => {
    expect(archive.keys(await search({ q: 'quokka', liked: 'true' }))).toEqual(['title']);
    expect(archive.keys(await search({ q: 'quokka', liked: 'false' }))).toEqual(['many', 'body']);
    expect(archive.keys(await search({ q: '中文', read: 'true' }))).toEqual(['cn']);
    expect(archive.keys(await search({ q: '中文', ext: 'webarchive' }))).toEqual(['zh']);
    expect(archive.keys(await search({ q: 'quokka', ext: ['html', 'mhtml'] }))).toEqual([
      'title',
      'many',
      'body',
    ]);
    expect(await search({ q: 'quokka', annotated: 'true' })).toEqual([]);
    expect(archive.keys(await search({ q: 'quokka', host: 'travel.example' }))).toEqual(['body']);
    expect(archive.keys(await search({ q: 'quokka', labels: 'animals' }))).toEqual(['title']);
    expect(archive.keys(await search({ q: 'quokka', per_page: 1 }))).toEqual(['title']);
    expect(archive.keys(await search({ q: 'quokka', per_page: 1, page: 2 }))).toEqual(['many']);
    expect(archive.keys(await search({ q: 'quokka', per_page: 2, page: 2 }))).toEqual(['body']);
    expect(await search({ q: 'quokka', per_page: 1, page: 4 })).toEqual([]);
  });

  it('finds a page as soon as its upload is answered', async () => {
    const page = { key: 'fresh', title: 'Fresh', ext: 'html' as const, text: 'A platypus swims.' };
    const stored = await upload(archive, fileFor(page), 'html', { title: page.title });
    const results = await search({ q: 'platypus' });
    expect(results.map((result) => result.id)).toEqual([stored.id]);
    expect(results[0]?.content).toContainEqual({ type: 'mark', content: 'platypus' });
    await ok(archive, 'deleteWebpage', { params: { id: stored.id } });
  });

  it('follows title edits and deletes', async () => {
    const id = archive.id('other');
    await ok(archive, 'patchWebpage', { params: { id }, body: { title: 'Wombat notes' } });
    expect(archive.keys(await search({ q: 'wombat' }))).toEqual(['other']);
    expect(await search({ q: 'unrelated' })).toEqual([]);
    await ok(archive, 'deleteWebpage', { params: { id } });
    expect(await search({ q: 'wombat' })).toEqual([]);
  });

  it('needs q', async () => {
    expect((await fails(archive, 'searchWebpages', 400, { query: {} })).message).toBe(
      'query/q is required',
    );
    expect((await fails(archive, 'searchWebpages', 400, { query: { q: '' } })).message).toBe(
      'query/q must not be empty',
    );
    expect((await fails(archive, 'searchWebpages', 400, { query: { q: '   ' } })).message).toMatch(
      /^query\/q must contain/,
    );
    expect(
      (await fails(archive, 'searchWebpages', 400, { query: { q: 'a', sort: 'title_asc' } }))
        .message,
    ).toBe('query/sort is not allowed');
    expect(
      (await fails(archive, 'searchWebpages', 400, { query: { q: 'x'.repeat(501) } })).message,
    ).toMatch(/^query\/q/);
  });
});

describe('searchWebpages with FOLIO_DISABLE_SEARCH', () => {
  it('answers 404, like a server without search', async () => {
    const without = await startTestServer({ disableSearch: true });
    try {
      const response = await fetchApiError(without, '/public/api/v1/search/webpages?q=quokka', {
        headers: { authorization: `Bearer ${without.token}` },
      });
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('full-text search is not available');
    } finally {
      await without.close();
    }
  });
});
