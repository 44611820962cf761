import { describe, expect, it } from 'vitest';

import { utf8 } from '../../../test/archives.ts';
import { appendPieces } from '../frame/append-pieces.ts';
import { materializePreview } from '../frame/materialize.ts';
import { DEFAULT_LIMITS } from './build-document.ts';
import {
  buildPreview,
  previewResponse,
  toResponse,
  type PreviewFirstPart,
} from './build-preview.ts';
import { reservedMemberNames } from './document-members.ts';
import { PART_ATTRIBUTE, type SplitLimits } from './split.ts';

const reservedNames = new Set(reservedMemberNames());
const NONCE = 'c0ffee';

/** A thread as SingleFile saves one: an app shell, a header, posts in a `<main>`, a footer. */
function thread(posts: number, extra = ''): Uint8Array {
  const items = Array.from(
    { length: posts },
    (_, n) =>
      `<article id="post-${n}"><h2><a href="https://forum.example/t/${n}">Reply ${n}</a></h2>` +
      `<p>Text of reply <em>${n}</em>.</p></article>`,
  ).join('\n');
  return utf8(
    `<!DOCTYPE html><html><head><title>Thread</title><style>article{margin:1em}</style></head>` +
      `<body class="b"><header><nav><a href="#post-0">first</a></nav></header>` +
      `<div id="app" ${PART_ATTRIBUTE}="forged"><main>\n${items}\n</main>` +
      `<aside>After the thread</aside>${extra}</div><footer>The end</footer></body></html>`,
  );
}

function build(bytes: Uint8Array, split: SplitLimits) {
  return buildPreview('html', bytes, {
    nonce: NONCE,
    reservedNames,
    limits: { ...DEFAULT_LIMITS, split },
  });
}

/** The document whole: its parts in order. */
function wholeHtml(built: { parts: readonly { html: string }[] }): string {
  return built.parts.map((part) => part.html).join('');
}

const SMALL: SplitLimits = { minNodes: 100, partNodes: 40 };
const NEVER: SplitLimits = { minNodes: Number.POSITIVE_INFINITY, partNodes: 40 };

/** The frame's document and pieces, as the main thread has them. */
function materialized(bytes: Uint8Array, split: SplitLimits) {
  const response = toResponse(build(bytes, split));
  if (!response.ok) throw new Error(response.message);
  return materializePreview(response, () => 'blob:unused');
}

/** The page as the frame ends up with it: its first part loaded, then its pieces appended. */
async function assemble(bytes: Uint8Array, split: SplitLimits): Promise<Document> {
  const { html, pieces } = materialized(bytes, split);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  await appendPieces(doc, pieces, new AbortController().signal, () => Promise.resolve());
  return doc;
}

describe('a long page in parts', () => {
  it('writes a page under the threshold whole, in one part without markers', () => {
    const built = build(thread(5), SMALL);
    expect(built.parts).toEqual([{ into: null, html: wholeHtml(built) }]);
    expect(wholeHtml(built)).not.toContain(PART_ATTRIBUTE);
  });

  it('loads a first part of about a piece, and cuts inside the containers that hold the bulk', () => {
    const built = build(thread(200), SMALL);
    const [first, ...rest] = built.parts;
    expect(first?.into).toBeNull();
    // The header and the first posts are in the document the frame loads; the thread goes on in
    // pieces for <main>, then the rest of #app and of the body in pieces of their own.
    expect(first?.html).toContain('<header>');
    expect(first?.html).toContain('id="post-0"');
    expect(first?.html).not.toContain('id="post-199"');
    const markers = [...(first?.html ?? '').matchAll(/data-folio-part="([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(markers).toEqual([`${NONCE}-0`, `${NONCE}-1`, `${NONCE}-2`]);
    const pieces = rest.filter((part) => part.into !== null);
    expect(new Set(pieces.map((part) => part.into))).toEqual(new Set(markers));
    expect(pieces.length).toBeGreaterThan(10);
    // The page's own attribute of that name is not written: the marker is the app's.
    expect(wholeHtml(built)).not.toContain('forged');
    // In order, the parts are the document the page gives whole, with the markers.
    expect(wholeHtml(built).replaceAll(/ data-folio-part="[^"]+"/g, '')).toBe(
      wholeHtml(build(thread(200), NEVER)),
    );
  });

  it('gives, once every piece is appended, the document the page gives whole', async () => {
    const bytes = thread(300, '<ul>' + '<li>item</li>'.repeat(150) + '</ul>');
    const split = await assemble(bytes, SMALL);
    const whole = await assemble(bytes, NEVER);
    expect(split.querySelectorAll(`[${PART_ATTRIBUTE}]`)).toHaveLength(0);
    expect(split.querySelectorAll('article')).toHaveLength(300);
    expect(split.documentElement.outerHTML).toBe(whole.documentElement.outerHTML);
  });

  it('never cuts inside a table: a child that is not a plain container comes whole', async () => {
    const rows = Array.from({ length: 400 }, (_, n) => `<tr><td>row ${n}</td></tr>`).join('');
    const bytes = utf8(
      `<!DOCTYPE html><html><head></head><body><p>Intro</p><table>${rows}</table>` +
        `${'<p>after</p>'.repeat(100)}</body></html>`,
    );
    const built = build(bytes, SMALL);
    const withTable = built.parts.filter((part) => part.html.includes('<td>'));
    expect(withTable).toHaveLength(1);
    expect(withTable[0]?.html).toMatch(/<table><tr><td>row 0<\/td>.*row 399<\/td><\/tr><\/table>/);
    const split = await assemble(bytes, SMALL);
    const whole = await assemble(bytes, NEVER);
    expect(split.querySelectorAll('tbody')).toHaveLength(1);
    expect(split.documentElement.outerHTML).toBe(whole.documentElement.outerHTML);
  });

  it('tells the first part as soon as it is written, before the answer, for a long page only', () => {
    const told: PreviewFirstPart[] = [];
    const response = previewResponse('html', thread(1000), [...reservedNames], (first) =>
      told.push(first),
    );
    if (!response.ok) throw new Error(response.message);
    expect(told).toHaveLength(1);
    const [first] = response.parts;
    expect(told[0]?.first.strings.join('')).toBe(first?.template.strings.join(''));
    expect(first?.into).toBeNull();
    expect(response.parts.length).toBeGreaterThan(2);

    told.length = 0;
    previewResponse('html', thread(5), [...reservedNames], (first) => told.push(first));
    expect(told).toEqual([]);
  });

  it('stops appending when the preview goes away', async () => {
    const { html, pieces } = materialized(thread(200), SMALL);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const controller = new AbortController();
    let paints = 0;
    const appending = appendPieces(doc, pieces, controller.signal, () => {
      if (++paints === 3) controller.abort(new Error('gone'));
      return Promise.resolve();
    });
    await expect(appending).rejects.toThrow('gone');
    const shown = doc.querySelectorAll('article').length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(200);
  });
});
