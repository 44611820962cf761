import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { fails, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await server.close();
});

describe('highlights', () => {
  it('creates, edits the note of and deletes highlights, counting them', async () => {
    const page = await upload(server, makeHtml({ title: 'Marked up' }), 'html');
    server.clock.set(1_750_000_000_000);
    const first = await ok(server, 'createHighlight', {
      params: { id: page.id },
      body: { text: 'Marked', textBefore: '', textAfter: ' up', tenThousandth: 1234.5, note: 'n1' },
    });
    expect(typeof first).toBe('string');
    const second = await ok(server, 'createHighlight', {
      params: { id: page.id },
      body: { text: 'up', textBefore: 'Marked ', textAfter: '' },
    });
    expect(second).not.toBe(first);

    const withTwo = await ok(server, 'getWebpage', { params: { id: page.id } });
    expect(withTwo.highlights).toEqual([
      {
        highlightId: first,
        type: 1,
        marker: { meta: { textBefore: '', textAfter: ' up' } },
        text: 'Marked',
        note: 'n1',
        tenThousandth: 1234.5,
        editTime: 1_750_000_000_000,
      },
      {
        highlightId: second,
        type: 1,
        marker: { meta: { textBefore: 'Marked ', textAfter: '' } },
        text: 'up',
        editTime: 1_750_000_000_000,
      },
    ]);
    const listed = await ok(server, 'listWebpages', { query: { annotated: 'true' } });
    expect(listed.webpages.map((item) => [item.id, item.annotateCount])).toEqual([[page.id, 2]]);

    server.clock.set(1_750_000_100_000);
    const noted = await ok(server, 'patchHighlight', {
      params: { id: page.id, highlight_id: second },
      body: { note: 'a note' },
    });
    expect(noted.highlights[1]).toMatchObject({ note: 'a note', editTime: 1_750_000_100_000 });
    expect(noted.highlights[0]).toEqual(withTwo.highlights[0]);

    const removed = await ok(server, 'deleteHighlight', {
      params: { id: page.id, highlight_id: first },
    });
    expect(removed.highlights.map((highlight) => highlight.highlightId)).toEqual([second]);
    const counted = await ok(server, 'listWebpages');
    expect(counted.webpages[0]?.annotateCount).toBe(1);
    await ok(server, 'deleteHighlight', { params: { id: page.id, highlight_id: second } });
    const none = await ok(server, 'listWebpages', { query: { annotated: 'false' } });
    expect(none.webpages.map((item) => [item.id, item.annotateCount])).toEqual([[page.id, 0]]);
  });

  it('is 404 for unknown pages and highlights, and for a highlight of another page', async () => {
    const page = await upload(server, makeHtml({ title: 'One' }), 'html');
    const other = await upload(server, makeHtml({ title: 'Two' }), 'html');
    const highlight = await ok(server, 'createHighlight', {
      params: { id: other.id },
      body: { text: 'Two', textBefore: '', textAfter: '' },
    });
    const body = { text: 'x', textBefore: '', textAfter: '' };
    await fails(server, 'createHighlight', 404, { params: { id: 'b'.repeat(64) }, body });
    const wrongPage = await fails(server, 'patchHighlight', 404, {
      params: { id: page.id, highlight_id: highlight },
      body: { note: 'x' },
    });
    expect(wrongPage.message).toBe(`highlight ${highlight} not found`);
    await fails(server, 'deleteHighlight', 404, {
      params: { id: page.id, highlight_id: highlight },
    });
    await fails(server, 'deleteHighlight', 404, { params: { id: other.id, highlight_id: 'nope' } });
    // Still there on its own page.
    const still = await ok(server, 'getWebpage', { params: { id: other.id } });
    expect(still.highlights).toHaveLength(1);
  });

  it('validates highlight requests', async () => {
    const page = await upload(server, makeHtml({ title: 'Valid' }), 'html');
    const cases: [unknown, string][] = [
      [{ textBefore: '', textAfter: '' }, 'body/text is required'],
      [{ text: '', textBefore: '', textAfter: '' }, 'body/text must not be empty'],
      [{ text: 'a', textAfter: '' }, 'body/textBefore is required'],
      [
        { text: 'a', textBefore: '', textAfter: '', tenThousandth: 10001 },
        'body/tenThousandth must be <= 10000',
      ],
      [{ text: 'a', textBefore: '', textAfter: '', color: 'red' }, 'body/color is not allowed'],
    ];
    for (const [body, message] of cases) {
      const error = await fails(server, 'createHighlight', 400, { params: { id: page.id }, body });
      expect(error.message).toBe(message);
    }
    const id = await ok(server, 'createHighlight', {
      params: { id: page.id },
      body: { text: 'a', textBefore: '', textAfter: '' },
    });
    const missingNote = await fails(server, 'patchHighlight', 400, {
      params: { id: page.id, highlight_id: id },
      body: { text: 'b' },
    });
    expect(missingNote.message).toBe('body/note is required');
  });
});
