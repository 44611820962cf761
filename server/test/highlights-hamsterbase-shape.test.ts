// Highlights round-trip in HamsterBase's shape: what HamsterBase's app and Folio's client send to
// createHighlight (a flat `{text, textBefore, textAfter, tenThousandth?, note?}`) comes back on the
// page as `{highlightId, type: 1, marker: {meta: {textBefore, textAfter}}, text, note?,
// tenThousandth?, editTime}`, byte for byte, with nothing more — on the page, in a view's list, after
// a note edit and after the page is deleted and uploaded again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await server.close();
});

/** Quotes as real pages give them: line breaks between blocks, non-breaking and wide spaces, RTL. */
const SENT = [
  {
    // Made in Folio's preview: the selection's text, 32 characters of context, a position, a note.
    text: 'what matters for later reading.\n\nA second paragraph',
    textBefore: 'Archived pages keep ',
    textAfter: ' with bold words and more text t',
    tenThousandth: 2716,
    note: 'Worth keeping\nacross lines',
  },
  {
    // Made in HamsterBase's app: no position, no note, empty context at the page's start.
    text: 'Überschrift\u00a0— 日本語のテキスト',
    textBefore: '',
    textAfter: ' مرحبا بالعالم ',
  },
  {
    // A fractional position, an empty note, context with markup-like text kept as text.
    text: '<b>not markup</b> & "quotes"',
    textBefore: '  leading spaces\t',
    textAfter: '',
    tenThousandth: 9999.5,
    note: '',
  },
] as const;

function expected(id: string, sent: (typeof SENT)[number], editTime: number) {
  return {
    highlightId: id,
    type: 1,
    marker: { meta: { textBefore: sent.textBefore, textAfter: sent.textAfter } },
    text: sent.text,
    ...('note' in sent ? { note: sent.note } : {}),
    ...('tenThousandth' in sent ? { tenThousandth: sent.tenThousandth } : {}),
    editTime,
  };
}

describe('HamsterBase-shaped highlights', () => {
  it('come back on the page exactly as sent, in the order they were made, with nothing more', async () => {
    const page = await upload(server, makeHtml({ title: 'Round trip' }), 'html');
    const ids: string[] = [];
    for (const [index, sent] of SENT.entries()) {
      server.clock.set(1_760_000_000_000 + index);
      ids.push(await ok(server, 'createHighlight', { params: { id: page.id }, body: sent }));
    }
    expect(new Set(ids).size).toBe(SENT.length);

    const want = SENT.map((sent, index) => expected(ids[index]!, sent, 1_760_000_000_000 + index));
    const stored = await ok(server, 'getWebpage', { params: { id: page.id } });
    // toStrictEqual: no key more, none less, none undefined.
    expect(stored.highlights).toStrictEqual(want);
    for (const highlight of stored.highlights) {
      expect(Object.keys(highlight.marker)).toEqual(['meta']);
      expect(Object.keys(highlight.marker.meta).sort()).toEqual(['textAfter', 'textBefore']);
    }

    // A view's list carries the same highlights.
    const view = await ok(server, 'createView', { body: { title: 'All' } });
    const listed = await ok(server, 'listViewWebpages', { params: { view_id: view.id } });
    expect(listed.webpages.find((item) => item.id === page.id)?.highlights).toStrictEqual(want);
  });

  it('keep their quote and context through a note edit, a delete and a re-upload', async () => {
    const file = makeHtml({ title: 'Kept' });
    const page = await upload(server, file, 'html');
    server.clock.set(1_760_000_000_000);
    const id = await ok(server, 'createHighlight', { params: { id: page.id }, body: SENT[1] });

    server.clock.set(1_760_000_500_000);
    const noted = await ok(server, 'patchHighlight', {
      params: { id: page.id, highlight_id: id },
      body: { note: 'added later' },
    });
    const withNote = { ...expected(id, SENT[1], 1_760_000_500_000), note: 'added later' };
    expect(noted.highlights).toStrictEqual([withNote]);

    await ok(server, 'deleteWebpage', { params: { id: page.id } });
    const again = await upload(server, file, 'html');
    expect(again.id).toBe(page.id);
    const restored = await ok(server, 'getWebpage', { params: { id: page.id } });
    expect(restored.highlights).toStrictEqual([withNote]);
  });
});
