// The index of an MHTML file's parts reads back as the structure it was written from, and only
// for that file: an index that is damaged, or that would put a part anywhere the file has none, or
// a header the reader would never have read, is no index at all.
import { describe, expect, it } from 'vitest';
import { makeMhtml, makePng } from '../../test/support/archives.ts';
import { readMhtmlStructure } from '../../shared/formats/mhtml.ts';
import {
  MHTML_INDEX_MAX_CHARS,
  readMhtmlIndex,
  writeMhtmlIndex,
} from '../../shared/formats/mhtml-index.ts';

const file = makeMhtml({
  url: 'https://example.org/a',
  html: '<!DOCTYPE html><title>A</title><p>a</p>',
  resources: [
    { url: 'https://example.org/i.png', contentType: 'image/png', body: makePng(4, 4, [1, 2, 3]) },
    { url: 'https://example.org/s.css', contentType: 'text/css', body: 'p{}' },
  ],
});
const structure = readMhtmlStructure(file);
const index = writeMhtmlIndex(structure, file.length)!;

/** The index as JSON, changed by `change`, written back. */
function changed(change: (json: { parts: [[string, string][], number, number][] }) => void) {
  const json = JSON.parse(index) as { parts: [[string, string][], number, number][] };
  change(json);
  return JSON.stringify(json);
}

describe('the index of an MHTML file’s parts', () => {
  it('reads back as the file’s structure', () => {
    expect(readMhtmlIndex(index, file.length)).toEqual(structure);
  });

  it('is no index for a file of another size, or when it is not this version’s JSON', () => {
    expect(readMhtmlIndex(index, file.length - 1)).toBeUndefined();
    for (const text of ['', '{', 'null', '[]', index.replace('"v":1', '"v":2')]) {
      expect(readMhtmlIndex(text, file.length)).toBeUndefined();
    }
  });

  it('is refused when a part is outside the file, out of order or not a whole number', () => {
    const damaged = [
      changed((json) => (json.parts[2]![2] = file.length + 1)),
      changed((json) => (json.parts[1]![1] = json.parts[0]![1])),
      changed((json) => (json.parts[0]![2] = json.parts[0]![1] - 1)),
      changed((json) => (json.parts[0]![1] = 0.5)),
      changed((json) => (json.parts[0]![1] = -1)),
    ];
    for (const text of damaged) expect(readMhtmlIndex(text, file.length)).toBeUndefined();
  });

  it('is refused with a header the file’s reader never gives: on two lines, or named twice', () => {
    const damaged = [
      changed((json) => json.parts[0]![0].push(['x-a', 'one\r\nx-injected: two'])),
      changed((json) => json.parts[0]![0].push(['X-Upper', 'value'])),
      changed((json) => json.parts[0]![0].push(['x:colon', 'value'])),
      changed((json) => json.parts[0]![0].push(json.parts[0]![0][0]!)),
    ];
    for (const text of damaged) expect(readMhtmlIndex(text, file.length)).toBeUndefined();
  });

  it('is not written when it would be too long to keep', () => {
    const parts = Array.from({ length: 2000 }, (_, index) => ({
      ...structure.parts[0]!,
      headers: new Map([['content-location', `https://example.org/${'x'.repeat(600)}/${index}`]]),
    }));
    const long = { ...structure, parts };
    expect(writeMhtmlIndex(long, file.length)).toBeNull();
    expect(JSON.stringify(parts.map((part) => [...part.headers])).length).toBeGreaterThan(
      MHTML_INDEX_MAX_CHARS,
    );
  });
});
