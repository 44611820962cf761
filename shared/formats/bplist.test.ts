import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeBplist } from '../../test/support/bplist-writer.ts';
import { parseBplist, PlistUid, type PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';

const MAGIC = [0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30];

/** Assembles a bplist from raw object encodings, for hand-made (and broken) files. */
function assemble(
  objects: number[][],
  options: { refSize?: number; offsetSize?: number; top?: number; count?: number } = {},
): Uint8Array {
  const { refSize = 1, offsetSize = 1, top = 0, count = objects.length } = options;
  const bytes: number[] = [...MAGIC];
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(bytes.length);
    bytes.push(...object);
  }
  const tableOffset = bytes.length;
  for (const offset of offsets) {
    for (let k = offsetSize - 1; k >= 0; k--) bytes.push(Math.floor(offset / 256 ** k) & 0xff);
  }
  const u64 = (value: number) => {
    const out: number[] = [];
    for (let k = 7; k >= 0; k--) out.push(Math.floor(value / 256 ** k) & 0xff);
    return out;
  };
  bytes.push(
    0,
    0,
    0,
    0,
    0,
    0,
    offsetSize,
    refSize,
    ...u64(count),
    ...u64(top),
    ...u64(tableOffset),
  );
  return Uint8Array.from(bytes);
}

/** What the reader gives back for a written value: safe bigints come back as numbers. */
function normalized(value: PlistValue): PlistValue {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(normalized);
  if (value instanceof Map) {
    return new Map([...value].map(([key, entry]) => [key, normalized(entry)] as const));
  }
  return value;
}

describe('parseBplist on hand-made files', () => {
  it('reads the file CoreFoundation writes for {a: 1}, and writeBplist writes the same bytes', () => {
    // plutil -convert binary1 of <dict><key>a</key><integer>1</integer></dict>
    const apple = assemble([
      [0xd1, 0x01, 0x02],
      [0x51, 0x61],
      [0x10, 0x01],
    ]);
    expect(parseBplist(apple)).toEqual(new Map([['a', 1]]));
    expect(writeBplist(new Map([['a', 1]]))).toEqual(apple);
  });

  it('reads 4-byte reals, unsigned small ints and signed 8-byte ints', () => {
    const file = assemble([
      [0xa4, 0x01, 0x02, 0x03, 0x04],
      [0x22, 0x3f, 0xc0, 0x00, 0x00], // float32 1.5
      [0x11, 0xff, 0xff], // 65535
      [0x13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe], // -2
      [0x12, 0x80, 0x00, 0x00, 0x00], // 2^31, unsigned
    ]);
    expect(parseBplist(file)).toEqual([1.5, 65535, -2, 2 ** 31]);
  });

  it('reads 16-byte integers and unsafe 8-byte integers as bigint', () => {
    const file = assemble([
      [0xa3, 0x01, 0x02, 0x03],
      [0x14, ...new Array<number>(8).fill(0), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x13, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x14, ...new Array<number>(15).fill(0), 0x07],
    ]);
    expect(parseBplist(file)).toEqual([2n ** 64n - 1n, 2n ** 63n - 1n, 7]);
  });

  it('reads UTF-16BE strings, data, dates, UIDs, sets and singletons', () => {
    const file = assemble([
      [0xa8, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
      [0x62, 0x65, 0xe5, 0x67, 0x2c], // "日本"
      [0x43, 0x01, 0x02, 0x03],
      [0x33, 0x41, 0xc6, 0x92, 0x5e, 0x80, 0x00, 0x00, 0x00], // 2025-01-01T00:00:00Z
      [0x81, 0x01, 0x02],
      [0xc1, 0x07],
      [0x00],
      [0x09],
      [0x08],
    ]);
    expect(parseBplist(file)).toEqual([
      '日本',
      Uint8Array.of(1, 2, 3),
      new Date('2025-01-01T00:00:00Z'),
      new PlistUid(258),
      [true],
      null,
      true,
      false,
    ]);
  });

  it('returns data as a view into the input', () => {
    const file = assemble([[0x42, 0xaa, 0xbb]]);
    const data = parseBplist(file) as Uint8Array;
    expect(data.buffer).toBe(file.buffer);
  });

  it('reads lengths of 15 and more from a following int', () => {
    const ascii = 'x'.repeat(300);
    const file = assemble([[0x5f, 0x11, 0x01, 0x2c, ...Array.from(ascii, (c) => c.charCodeAt(0))]]);
    expect(parseBplist(file)).toBe(ascii);
  });

  it('shares an object referenced twice and handles deep sharing without blow-up', () => {
    // Object i is [i+1, i+1]: 2^40 paths, 41 objects.
    const depth = 40;
    const objects: number[][] = [];
    for (let i = 0; i < depth; i++) objects.push([0xa2, i + 1, i + 1]);
    objects.push([0x10, 0x2a]);
    let value = parseBplist(assemble(objects)) as PlistValue[];
    for (let i = 0; i < depth - 1; i++) {
      expect(value[0]).toBe(value[1]);
      value = value[0] as PlistValue[];
    }
    expect(value).toEqual([42, 42]);
  });
});

describe('parseBplist rejects broken files with FormatError', () => {
  it.each([
    ['empty input', new Uint8Array(0)],
    [
      'the wrong magic',
      Uint8Array.from(
        [...'bplist01'].map((c) => c.charCodeAt(0)).concat(new Array<number>(40).fill(0)),
      ),
    ],
    ['a truncated trailer', assemble([[0x09]]).subarray(0, 30)],
    ['a reference out of range', assemble([[0xa1, 0x05]])],
    ['a top object out of range', assemble([[0x09]], { top: 3 })],
    ['an object count larger than the table', assemble([[0x09]], { count: 1000 })],
    ['a zero object count', assemble([[0x09]], { count: 0 })],
    ['a zero ref size', assemble([[0x09]], { refSize: 0 })],
    [
      'a huge array count',
      assemble([[0xaf, 0x13, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]]),
    ],
    ['a huge string length', assemble([[0x5f, 0x12, 0x7f, 0xff, 0xff, 0xff]])],
    ['data running past the objects', assemble([[0x4e, 0x01]])],
    [
      'a non-string dictionary key',
      assemble([
        [0xd1, 0x01, 0x01],
        [0x10, 0x01],
      ]),
    ],
    ['an unknown marker', assemble([[0x70]])],
    ['an integer wider than 16 bytes', assemble([[0x15, 0x00]])],
    [
      'an offset pointing into the header',
      Uint8Array.from([
        ...assemble([[0x09]]).slice(0, -32),
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        8,
      ]),
    ],
  ])('%s', (_, input) => {
    expect(() => parseBplist(input)).toThrow(FormatError);
  });

  it('reports reference cycles as such', () => {
    expect(() => parseBplist(assemble([[0xa1, 0x00]]))).toThrow(/reference cycle/);
    const indirect = assemble([
      [0xa1, 0x01],
      [0xd1, 0x02, 0x00],
      [0x51, 0x6b],
    ]);
    expect(() => parseBplist(indirect)).toThrow(FormatError);
    expect(() => parseBplist(indirect)).toThrow(/reference cycle/);
  });

  it('rejects nesting deeper than 512 instead of overflowing the stack', () => {
    const objects: number[][] = [];
    const count = 2000;
    for (let i = 0; i < count - 1; i++) objects.push([0xa1, (i + 1) >> 8, (i + 1) & 0xff]);
    objects.push([0x00]);
    expect(() => parseBplist(assemble(objects, { refSize: 2, offsetSize: 2 }))).toThrow(
      /nesting too deep/,
    );
  });

  it('never throws anything but FormatError for arbitrary bytes after the magic', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 512 }), (tail) => {
        const input = Uint8Array.from([...MAGIC, ...tail]);
        try {
          parseBplist(input);
        } catch (error) {
          expect(error).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws anything but FormatError for corrupted valid files', () => {
    const valid = writeBplist(
      new Map<string, PlistValue>([
        ['list', [1, 'two', 3.5, new Date(0), Uint8Array.of(9, 8, 7), 'ü', [null, true]]],
        ['nested', new Map<string, PlistValue>([['deep', new Map([['x', 2n ** 70n]])]])],
      ]),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (edits) => {
          const copy = valid.slice();
          for (const [index, value] of edits) copy[index] = value;
          try {
            parseBplist(copy);
          } catch (error) {
            expect(error).toBeInstanceOf(FormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('writeBplist', () => {
  const plistValue = fc.letrec<{ value: PlistValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ maxLength: 40 }),
      fc.date({ min: new Date('1900-01-01'), max: new Date('2300-01-01'), noInvalidDate: true }),
      fc.uint8Array({ maxLength: 64 }),
      fc.nat({ max: 2 ** 32 }).map((n) => new PlistUid(n)),
      fc.array(tie('value'), { maxLength: 20 }),
      fc
        .array(fc.tuple(fc.string({ maxLength: 12 }), tie('value')), { maxLength: 20 })
        .map((entries) => new Map(entries)),
    ),
  })).value;

  it('round-trips arbitrary values', () => {
    fc.assert(
      fc.property(plistValue, (value) => {
        expect(parseBplist(writeBplist(value))).toEqual(normalized(value));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps -0, NaN and infinities as reals', () => {
    const parsed = parseBplist(writeBplist([-0, NaN, Infinity, -Infinity, 0.1])) as number[];
    expect(Object.is(parsed[0], -0)).toBe(true);
    expect(parsed.slice(1)).toEqual([NaN, Infinity, -Infinity, 0.1]);
  });

  it('uses wider references and offsets when the file needs them', () => {
    const many = Array.from({ length: 70_000 }, (_, i) => `item ${i}`);
    const big = new Uint8Array(100_000).fill(7);
    const file = writeBplist([many, big]);
    const trailer = file.subarray(file.length - 32);
    expect(trailer[6]).toBe(4); // offsets beyond 64 KB
    expect(trailer[7]).toBe(4); // more than 65,536 objects
    const [list, data] = parseBplist(file) as [string[], Uint8Array];
    expect(list).toHaveLength(70_000);
    expect(list[69_999]).toBe('item 69999');
    expect(data.length).toBe(100_000);
  });

  it('writes a shared object once', () => {
    const shared = new Uint8Array(1000);
    const once = writeBplist([shared]);
    const twice = writeBplist([shared, shared]);
    expect(twice.length).toBeLessThan(once.length + 10);
    const [first, second] = parseBplist(twice) as Uint8Array[];
    expect(first).toBe(second);
  });

  it('refuses cyclic values', () => {
    const list: PlistValue[] = [];
    list.push(list);
    expect(() => writeBplist(list)).toThrow(FormatError);
    const dict = new Map<string, PlistValue>();
    dict.set('self', [dict]);
    expect(() => writeBplist(dict)).toThrow(FormatError);
  });

  it('refuses invalid dates and integers wider than 128 bits', () => {
    expect(() => writeBplist(new Date(NaN))).toThrow(FormatError);
    expect(() => writeBplist(2n ** 130n)).toThrow(FormatError);
  });
});
