// Every reader does bounded work on any input: a result or a FormatError, never another exception,
// never more than about linear work (a shared object is not walked twice, counts and depths are
// capped by limits.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeBplist } from '../../test/support/bplist-writer.ts';
import {
  deepBplist,
  deepFramesXmlWebarchive,
  deepXmlPlist,
  hugeHeaderMhtml,
  manyFramesXmlWebarchive,
  manyPartsMhtml,
  sharedDataWebarchive,
  sharedFrameWebarchive,
  sharedResourceWebarchive,
  writeXmlPlist,
} from '../../test/support/hostile-inputs.ts';
import { parseBplist, type PlistDict, type PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';
import {
  ARCHIVE_MAX_DECODED_BYTES,
  MHTML_MAX_PART_HEADER_BYTES,
  MHTML_MAX_PARTS,
  PLIST_MAX_DEPTH,
  PLIST_MAX_OBJECTS,
  WEBARCHIVE_MAX_FRAME_DEPTH,
  WEBARCHIVE_MAX_FRAMES,
  WEBARCHIVE_MAX_RESOURCES,
} from './limits.ts';
import { parseMhtml } from './mhtml.ts';
import { parseWebarchive, type Webarchive } from './webarchive.ts';
import { parseXmlPlist } from './xml-plist.ts';

const encoder = new TextEncoder();
const utf8 = (text: string) => new Uint8Array(encoder.encode(text));

/** Runs `parse`: its result, or the FormatError it threw (anything else fails the test). */
function outcome<T>(parse: () => T): T | FormatError {
  try {
    return parse();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return error as FormatError;
  }
}

function refusal(parse: () => unknown): string {
  const result = outcome(parse);
  expect(result).toBeInstanceOf(FormatError);
  return (result as FormatError).message;
}

/** Frames and resources of a parsed archive, counted as a tree. */
function treeSize(archive: Webarchive): number {
  return (
    1 +
    1 +
    archive.subresources.length +
    archive.subframeArchives.reduce((sum, frame) => sum + treeSize(frame), 0)
  );
}

function resource(url: string, data: Uint8Array, mimeType = 'text/html'): PlistDict {
  return new Map<string, PlistValue>([
    ['WebResourceData', data],
    ['WebResourceMIMEType', mimeType],
    ['WebResourceURL', url],
  ]);
}

describe('webarchive: shared objects', () => {
  it('refuses subframes that are one shared object (2^24 frames from a 1 kB file)', () => {
    const file = sharedFrameWebarchive(24);
    expect(file.length).toBeLessThan(1024);
    expect(refusal(() => parseWebarchive(file))).toMatch(
      /^webarchive: the webarchive reuses a frame: subframe 1 at depth 24 is an object already read/,
    );
  });

  it('refuses a resource dictionary listed twice, and a frame listed twice at one level', () => {
    expect(refusal(() => parseWebarchive(sharedResourceWebarchive(2, 10)))).toMatch(
      /reuses a resource/,
    );
    const frame: PlistDict = new Map([['WebMainResource', resource('https://f/', utf8('f'))]]);
    const twice = writeBplist(
      new Map<string, PlistValue>([
        ['WebMainResource', resource('https://a/', utf8('<p>a'))],
        ['WebSubframeArchives', [frame, frame]],
      ]),
    );
    expect(refusal(() => parseWebarchive(twice))).toMatch(/reuses a frame/);
    // One list object used as the resources of two frames.
    const list = [resource('https://r/', utf8('r'), 'text/css')];
    const sharedList = writeBplist(
      new Map<string, PlistValue>([
        ['WebMainResource', resource('https://a/', utf8('<p>a'))],
        ['WebSubresources', list],
        [
          'WebSubframeArchives',
          [
            new Map<string, PlistValue>([
              ['WebMainResource', resource('https://f/', utf8('f'))],
              ['WebSubresources', list],
            ]),
          ],
        ],
      ]),
    );
    expect(refusal(() => parseWebarchive(sharedList))).toMatch(/reuses a list/);
  });

  it('accepts data shared by distinct resources (Apple’s writer shares equal data)', () => {
    const parsed = parseWebarchive(sharedDataWebarchive(50, 1000));
    expect(parsed.subresources).toHaveLength(50);
    expect(parsed.subresources[0]!.data).toBe(parsed.subresources[49]!.data);
  });

  it('refuses resources whose bytes add up to more than ARCHIVE_MAX_DECODED_BYTES', () => {
    const perResource = 1 << 20;
    const count = Math.floor(ARCHIVE_MAX_DECODED_BYTES / perResource) + 1;
    expect(refusal(() => parseWebarchive(sharedDataWebarchive(count, perResource)))).toMatch(
      /resources add up to more than 536870912 bytes/,
    );
    expect(parseWebarchive(sharedDataWebarchive(count - 2, perResource)).subresources).toHaveLength(
      count - 2,
    );
  });
});

describe('webarchive: counts and depth', () => {
  it(`takes ${WEBARCHIVE_MAX_FRAMES} frames, not one more`, () => {
    expect(
      parseWebarchive(manyFramesXmlWebarchive(WEBARCHIVE_MAX_FRAMES - 1)).subframeArchives,
    ).toHaveLength(WEBARCHIVE_MAX_FRAMES - 1);
    expect(refusal(() => parseWebarchive(manyFramesXmlWebarchive(WEBARCHIVE_MAX_FRAMES)))).toBe(
      `webarchive: more than ${WEBARCHIVE_MAX_FRAMES} frames`,
    );
  });

  it(`takes ${WEBARCHIVE_MAX_RESOURCES} resources, not one more`, () => {
    expect(
      parseWebarchive(sharedDataWebarchive(WEBARCHIVE_MAX_RESOURCES - 1, 4)).subresources,
    ).toHaveLength(WEBARCHIVE_MAX_RESOURCES - 1);
    expect(refusal(() => parseWebarchive(sharedDataWebarchive(WEBARCHIVE_MAX_RESOURCES, 4)))).toBe(
      `webarchive: more than ${WEBARCHIVE_MAX_RESOURCES} resources`,
    );
  });

  it(`nests frames ${WEBARCHIVE_MAX_FRAME_DEPTH} deep, not deeper (XML plist)`, () => {
    let parsed = parseWebarchive(deepFramesXmlWebarchive(WEBARCHIVE_MAX_FRAME_DEPTH));
    let depth = 0;
    while (parsed.subframeArchives[0]) {
      parsed = parsed.subframeArchives[0];
      depth++;
    }
    expect(depth).toBe(WEBARCHIVE_MAX_FRAME_DEPTH);
    expect(
      refusal(() => parseWebarchive(deepFramesXmlWebarchive(WEBARCHIVE_MAX_FRAME_DEPTH + 1))),
    ).toMatch(/nested too deeply/);
  });
});

describe('property lists: depth and object counts', () => {
  it(`nest ${PLIST_MAX_DEPTH} deep, not deeper, binary and XML alike`, () => {
    expect(() => parseBplist(deepBplist(PLIST_MAX_DEPTH))).not.toThrow();
    expect(refusal(() => parseBplist(deepBplist(PLIST_MAX_DEPTH + 1)))).toMatch(/nesting too deep/);
    expect(() => parseXmlPlist(deepXmlPlist(PLIST_MAX_DEPTH))).not.toThrow();
    expect(refusal(() => parseXmlPlist(deepXmlPlist(PLIST_MAX_DEPTH + 2)))).toMatch(
      /nesting too deep/,
    );
    expect(refusal(() => parseWebarchive(deepXmlPlist(100_000)))).toMatch(/nesting too deep/);
  });

  it('refuse a binary plist whose trailer claims more than PLIST_MAX_OBJECTS objects', () => {
    const count = PLIST_MAX_OBJECTS + 1;
    const bytes = new Uint8Array(8 + 1 + count + 32);
    bytes.set(utf8('bplist00'));
    bytes[8] = 0x00; // null, the one real object
    bytes.fill(8, 9, 9 + count); // every offset points at it
    const trailer = new DataView(bytes.buffer, 9 + count);
    trailer.setUint8(6, 1); // offset size
    trailer.setUint8(7, 4); // reference size
    trailer.setBigUint64(8, BigInt(count));
    trailer.setBigUint64(16, 0n);
    trailer.setBigUint64(24, 9n); // the offset table
    expect(refusal(() => parseBplist(bytes))).toBe(
      `bplist: more than ${PLIST_MAX_OBJECTS} objects`,
    );
    bytes.fill(0, 9 + count - 1, 9 + count); // one entry less: 1,000,000 objects are fine
    trailer.setBigUint64(8, BigInt(count - 1));
    expect(parseBplist(bytes.subarray(0, bytes.length))).toBeNull();
  });

  it('refuse an XML plist of more than PLIST_MAX_OBJECTS values', () => {
    const xml = (values: number) =>
      utf8(`<plist><array>${'<true/>'.repeat(values)}</array></plist>`);
    expect(parseXmlPlist(xml(PLIST_MAX_OBJECTS - 1))).toHaveLength(PLIST_MAX_OBJECTS - 1);
    expect(refusal(() => parseXmlPlist(xml(PLIST_MAX_OBJECTS)))).toBe(
      `xml-plist: more than ${PLIST_MAX_OBJECTS} values`,
    );
  });
});

describe('mhtml: parts and headers', () => {
  it(`takes ${MHTML_MAX_PARTS} parts, not one more`, () => {
    expect(parseMhtml(manyPartsMhtml(MHTML_MAX_PARTS - 1)).parts).toHaveLength(MHTML_MAX_PARTS);
    expect(refusal(() => parseMhtml(manyPartsMhtml(MHTML_MAX_PARTS)))).toBe(
      `mhtml: more than ${MHTML_MAX_PARTS} parts`,
    );
    // A million parts claimed in 10 MB: refused at the limit, without reading the rest.
    expect(refusal(() => parseMhtml(manyPartsMhtml(1_000_000), { parts: 'main' }))).toMatch(
      /more than 20000 parts/,
    );
  });

  it(`takes part headers of ${MHTML_MAX_PART_HEADER_BYTES} bytes, not larger`, () => {
    expect(parseMhtml(hugeHeaderMhtml(MHTML_MAX_PART_HEADER_BYTES - 1000)).main.contentType).toBe(
      'text/html',
    );
    expect(refusal(() => parseMhtml(hugeHeaderMhtml(MHTML_MAX_PART_HEADER_BYTES + 100)))).toMatch(
      /a part's header block is larger than 262144 bytes/,
    );
  });
});

/** Random plist values whose containers may be shared by reference (a DAG, never a cycle). */
const sharedPlist = fc
  .record({
    leaves: fc.array(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.integer(),
        fc.uint8Array({ maxLength: 16 }),
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    // Each container lists earlier items (leaves or containers) by index: sharing is likely.
    containers: fc.array(
      fc.record({
        dict: fc.boolean(),
        items: fc.array(fc.nat(), { maxLength: 6 }),
        keys: fc.array(
          fc.constantFrom(
            'WebMainResource',
            'WebSubresources',
            'WebSubframeArchives',
            'WebResourceData',
            'WebResourceURL',
            'WebResourceMIMEType',
            'WebResourceTextEncodingName',
            'WebResourceFrameName',
            'x',
          ),
          { maxLength: 6 },
        ),
      }),
      { minLength: 1, maxLength: 30 },
    ),
  })
  .map(({ leaves, containers }) => {
    const pool: PlistValue[] = [...leaves];
    for (const { dict, items, keys } of containers) {
      const picked = items.map((index) => pool[index % pool.length]!);
      pool.push(
        dict
          ? new Map<string, PlistValue>(
              keys.map((key, k) => [key, picked[k] ?? pool[k % pool.length]!]),
            )
          : picked,
      );
    }
    return pool[pool.length - 1]!;
  });

/** A valid webarchive shaped like Safari's (frames, resources), for mutation. */
const validArchive = writeBplist(
  new Map<string, PlistValue>([
    ['WebMainResource', resource('https://a.example/', utf8('<title>A</title><p>a'))],
    [
      'WebSubresources',
      [
        resource('https://a.example/s.css', utf8('p{}'), 'text/css'),
        resource('https://a.example/i', utf8('i'), 'image/png'),
      ],
    ],
    [
      'WebSubframeArchives',
      [
        new Map<string, PlistValue>([
          ['WebMainResource', resource('https://f.example/', utf8('<p>f'))],
          ['WebSubresources', [resource('https://f.example/j', utf8('j'), 'text/javascript')]],
        ]),
      ],
    ],
  ]),
);

const edits = (length: number) =>
  fc.array(fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 10,
  });

describe('property: a result or a FormatError, and a result no larger than its file', () => {
  it('binary webarchives built from shared objects', () => {
    fc.assert(
      fc.property(sharedPlist, (value) => {
        const file = writeBplist(value);
        const result = outcome(() => parseWebarchive(file));
        if (!(result instanceof FormatError))
          expect(treeSize(result)).toBeLessThanOrEqual(file.length);
      }),
      { numRuns: 500 },
    );
  });

  it('mutated binary webarchives (counts, references, offsets and markers changed)', () => {
    fc.assert(
      fc.property(edits(validArchive.length), (changes) => {
        const copy = validArchive.slice();
        for (const [index, value] of changes) copy[index] = value;
        const result = outcome(() => parseWebarchive(copy));
        if (!(result instanceof FormatError))
          expect(treeSize(result)).toBeLessThanOrEqual(copy.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated XML webarchives', () => {
    const xml = writeXmlPlist(parseBplist(validArchive));
    fc.assert(
      fc.property(edits(xml.length), (changes) => {
        const copy = xml.slice();
        for (const [index, value] of changes) copy[index] = value;
        outcome(() => parseWebarchive(copy));
      }),
      { numRuns: 1000 },
    );
  });

  it('random and mutated MHTML (huge counts and sizes claimed, deep multiparts)', () => {
    const base = manyPartsMhtml(3);
    const text = fc.string({ unit: 'binary-ascii', maxLength: 200 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          edits(base.length).map((changes) => {
            const copy = base.slice();
            for (const [index, value] of changes) copy[index] = value;
            return copy;
          }),
          fc
            .tuple(fc.nat({ max: 40 }), text)
            .map(([depth, body]) =>
              utf8(
                `Content-Type: multipart/related; boundary="b0"\r\n\r\n` +
                  Array.from(
                    { length: depth },
                    (_, k) =>
                      `--b${k}\r\nContent-Type: multipart/mixed; boundary="b${k + 1}"\r\n\r\n`,
                  ).join('') +
                  `--b${depth}\r\nContent-Type: text/html\r\n\r\n${body}\r\n`,
              ),
            ),
        ),
        (bytes) => {
          const result = outcome(() => parseMhtml(bytes));
          if (!(result instanceof FormatError)) {
            expect(result.parts.length).toBeLessThanOrEqual(bytes.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('random bytes as webarchives', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1000 }), (tail) => {
        outcome(() => parseWebarchive(Uint8Array.from([...utf8('bplist00'), ...tail])));
        outcome(() => parseWebarchive(Uint8Array.from([...utf8('<plist>'), ...tail])));
      }),
      { numRuns: 1000 },
    );
  });
});
