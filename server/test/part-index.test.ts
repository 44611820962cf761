// An MHTML page's index of parts (migration 15): kept at upload, so that the preview's linked
// answer reads only the bytes of the parts it carries; a page without one (stored before) is read
// whole once and gets its index then. With or without the index, the answer is the same.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMhtml, readMhtmlStructure, type Mhtml } from '../../shared/formats/mhtml.ts';
import { readMhtmlIndex, writeMhtmlIndex } from '../../shared/formats/mhtml-index.ts';
import { makeMhtml, makeNoisePng, makePng } from '../../test/support/archives.ts';
import { binaryMhtmlChunks, linkedMhtmlFile } from '../src/routes/binary-mhtml.ts';
import type { RouteContext } from '../src/routes/context.ts';
import { HeldParts } from '../src/routes/held-parts.ts';
import { closeDatabase, openDatabase } from '../src/store/database.ts';
import type { ByteRange, Original } from '../src/store/originals.ts';
import { fetchContent, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const LINKED = 'application/vnd.folio.linked-mhtml';

/** A page whose photos are linked and whose text, style and icon come in the answer. */
function album(photos: number, seed = 0): Buffer {
  const resources = [];
  for (let index = 0; index < photos; index++) {
    resources.push(
      {
        url: `https://example.org/photo-${index}.png`,
        contentType: 'image/png',
        body: makeNoisePng(120 + index + seed, 110),
      },
      // A small part between each two large ones: the answer reads them in runs.
      {
        url: `https://example.org/icon-${index}.png`,
        contentType: 'image/png',
        body: makePng(8, 8, [index, seed, 200]),
      },
    );
  }
  return makeMhtml({
    url: 'https://example.org/album',
    html: '<!DOCTYPE html><title>Album</title><p>Photos</p>',
    resources: [
      ...resources,
      { url: 'https://example.org/style.css', contentType: 'text/css', body: 'p{color:red}' },
    ],
  });
}

/** What a client reads of a linked answer: each part's headers and bytes, the links as written. */
function reading(archive: Mhtml) {
  return archive.parts.map((part) => ({
    headers: Object.fromEntries(part.headers),
    body: Buffer.from(part.body).toString('base64'),
  }));
}

async function linked(server: TestServer, id: string) {
  const response = await fetchContent(server, id, { accept: LINKED });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(LINKED);
  return parseMhtml(Buffer.from(await response.arrayBuffer()));
}

/** Runs `use` on a second connection to the server's database, as the CLI tools do. */
function onDatabase<T>(server: TestServer, use: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(join(server.dataDir, 'folio.db'));
  try {
    return use(db);
  } finally {
    closeDatabase(db);
  }
}

function keptIndex(server: TestServer, id: string): string | undefined {
  return onDatabase(server, (db) =>
    db
      .prepare<[string], string>('SELECT part_index FROM webpage_part_indexes WHERE webpage_id = ?')
      .pluck()
      .get(id),
  );
}

describe('an MHTML page’s index of parts', () => {
  it('is kept at upload, and the answer is the same without it, which brings it back', async () => {
    const server = await startTestServer();
    try {
      const file = album(3);
      const { id } = await upload(server, file, 'mhtml');
      const index = keptIndex(server, id);
      expect(readMhtmlIndex(index ?? '', file.length)).toEqual(readMhtmlStructure(file));
      const withIndex = reading(await linked(server, id));
      expect(withIndex.filter((part) => part.headers['folio-part-url'] !== undefined)).toHaveLength(
        3,
      );

      // A page stored before the index: read whole, the same answer, and its index kept.
      onDatabase(server, (db) =>
        db.prepare('DELETE FROM webpage_part_indexes WHERE webpage_id = ?').run(id),
      );
      expect(keptIndex(server, id)).toBeUndefined();
      expect(reading(await linked(server, id))).toEqual(withIndex);
      expect(keptIndex(server, id)).toBe(index);

      // An index that does not fit the file (damaged, or of another size) is made again.
      for (const damaged of ['{', index!.replace(`"size":${file.length}`, '"size":1')]) {
        onDatabase(server, (db) =>
          db
            .prepare('UPDATE webpage_part_indexes SET part_index = ? WHERE webpage_id = ?')
            .run(damaged, id),
        );
        expect(reading(await linked(server, id))).toEqual(withIndex);
        expect(keptIndex(server, id)).toBe(index);
      }
    } finally {
      await server.close();
    }
  });

  it('goes with its page when the page is purged', async () => {
    const server = await startTestServer();
    try {
      const { id } = await upload(server, album(1, 7), 'mhtml');
      expect(keptIndex(server, id)).toBeDefined();
      onDatabase(server, (db) => db.prepare('DELETE FROM webpages WHERE id = ?').run(id));
      expect(keptIndex(server, id)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

/** An original in memory that records what is read of it. */
function recorded(file: Buffer) {
  const reads: { whole: number; ranges: ByteRange[] } = { whole: 0, ranges: [] };
  const original: Original = {
    size: file.length,
    stream: () => {
      throw new Error('not streamed');
    },
    bytes: () => {
      reads.whole++;
      return Promise.resolve(file);
    },
    async *read(ranges) {
      for (const range of ranges) {
        reads.ranges.push(range);
        yield file.subarray(range.start, range.end);
      }
    },
  };
  return { original, reads };
}

/** The route's context as the linked answer uses it, with the page's index as given. */
function contextWith(partIndex: string | undefined) {
  const kept: string[] = [];
  const heldParts = new HeldParts();
  const context = {
    store: {
      originals: {
        partIndex: () => partIndex,
        keepPartIndex: (_id: string, index: string) => kept.push(index),
      },
    },
    now: () => Date.UTC(2026, 10, 29),
    partLinkKey: () => Buffer.alloc(32, 1),
    heldParts,
  } as unknown as RouteContext;
  return { context, kept, heldParts };
}

async function answerOf(
  context: RouteContext,
  original: Original,
): Promise<{ archive: Mhtml; preload: string }> {
  const answer = await linkedMhtmlFile(context, 'page', original, 'page.mhtml', '/x/y');
  if (answer === null) throw new Error('no linked answer');
  const pieces: Buffer[] = [];
  for await (const piece of answer.file.stream) pieces.push(piece as Buffer);
  return { archive: parseMhtml(Buffer.concat(pieces)), preload: answer.preload };
}

describe('the linked answer of a page with its index', () => {
  it('reads only its small parts, in runs between the linked ones, and holds nothing', async () => {
    const file = album(4, 3);
    const structure = readMhtmlStructure(file);
    const { original, reads } = recorded(file);
    const { context, kept, heldParts } = contextWith(writeMhtmlIndex(structure, file.length)!);
    const { archive, preload } = await answerOf(context, original);
    expect(reads.whole).toBe(0);
    expect(kept).toEqual([]);
    expect(heldParts.heldBytes).toBe(0);
    // Four linked photos split the small parts into five runs: the page and the first icon, then
    // each icon (the last with the style).
    expect(reads.ranges).toHaveLength(5);
    const linkedBytes = structure.parts
      .filter((part) => part.contentType === 'image/png' && part.bodyEnd - part.bodyStart > 32_768)
      .map((part) => part.bodyEnd - part.bodyStart);
    expect(linkedBytes).toHaveLength(4);
    const read = reads.ranges.reduce((sum, range) => sum + range.end - range.start, 0);
    expect(read).toBeLessThan(file.length - linkedBytes.reduce((sum, bytes) => sum + bytes, 0));
    expect(preload.split(', ')).toHaveLength(4);

    // The same answer as from the whole file.
    const whole = recorded(file);
    const without = contextWith(undefined);
    const fromWhole = await answerOf(without.context, whole.original);
    expect(whole.reads.whole).toBe(1);
    expect(whole.reads.ranges).toEqual([]);
    expect(reading(archive)).toEqual(reading(fromWhole.archive));
    expect(fromWhole.preload).toBe(preload);
    // Read whole, its index is kept and its linked parts held for their requests.
    expect(without.kept).toEqual([writeMhtmlIndex(structure, file.length)]);
    expect(without.heldParts.heldBytes).toBe(linkedBytes.reduce((sum, bytes) => sum + bytes, 0));
  });
});

describe('the linked answer read in ranges', () => {
  it('lets go of the file when the answer stops early (the client went away)', async () => {
    const file = album(2, 9);
    const structure = readMhtmlStructure(file);
    let open = false;
    let closed = false;
    async function* read(ranges: readonly ByteRange[]) {
      open = true;
      try {
        for (const { start, end } of ranges) yield file.subarray(start, end);
      } finally {
        closed = true;
      }
    }
    const chunks = binaryMhtmlChunks(structure, read, () => 'parts/x')[Symbol.asyncIterator]();
    // The head, then the page's part: the file is open.
    for (let chunk = 0; chunk < 3; chunk++) await chunks.next();
    expect(open).toBe(true);
    expect(closed).toBe(false);
    await chunks.return?.();
    expect(closed).toBe(true);
  });
});
