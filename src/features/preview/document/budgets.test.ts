import { describe, expect, it } from 'vitest';

import type { PlistDict, PlistValue } from '../../../../shared/formats/bplist.ts';
import { writeBplist } from '../../../../test/support/bplist-writer.ts';
import { makeMhtml, makeWebarchive, utf8 } from '../../../test/archives.ts';
import { MAX_WEBARCHIVE_ENTRIES, unfoldedWebarchiveEntries } from './budgets.ts';
import { buildPreview, previewResponse } from './build-preview.ts';
import { DEFAULT_LIMITS } from './build-document.ts';
import { reservedMemberNames } from './document-members.ts';

const reservedNames = reservedMemberNames();

function resource(url: string, html: string): PlistDict {
  return new Map<string, PlistValue>([
    ['WebResourceData', utf8(html)],
    ['WebResourceMIMEType', 'text/html'],
    ['WebResourceURL', url],
  ]);
}

/**
 * A webarchive laid out the way a binary plist shares objects: each level's frame list holds the
 * same subframe archive twice (one object, two references), `levels` deep: 2^levels frames.
 */
function sharedFrameWebarchive(levels: number): Uint8Array {
  let frame: PlistDict = new Map<string, PlistValue>([
    ['WebMainResource', resource('https://example.com/leaf.html', '<p>leaf</p>')],
  ]);
  for (let level = 0; level < levels; level++) {
    const url = `https://example.com/${level}.html`;
    frame = new Map<string, PlistValue>([
      [
        'WebMainResource',
        resource(url, `<p>level ${level}</p><iframe src="${level - 1}.html"></iframe>`),
      ],
      ['WebSubframeArchives', [frame, frame]],
    ]);
  }
  return writeBplist(frame);
}

describe('webarchive unfolding', () => {
  it('counts every reference to a shared subframe, without walking it again', () => {
    const file = sharedFrameWebarchive(3);
    // One object per level in the file…
    expect(file.length).toBeLessThan(1000);
    // …and 1 + 2 + 4 + 8 frames once unfolded.
    const root = new Map<string, PlistValue>();
    let frames: PlistValue[] = [];
    for (let level = 0; level < 4; level++) {
      const next = new Map<string, PlistValue>([['WebSubframeArchives', frames]]);
      frames = [next, next];
      if (level === 3) root.set('WebSubframeArchives', frames);
    }
    expect(unfoldedWebarchiveEntries(root, 1000)).toBe(1 + 2 + 4 + 8 + 16);
    expect(unfoldedWebarchiveEntries(root, 10)).toBe(11);
  });

  it('answers "too complex" for 2^24 shared frames in a few kilobytes, before unfolding them', () => {
    const file = sharedFrameWebarchive(24);
    expect(file.length).toBeLessThan(6000);
    const response = previewResponse('webarchive', file, reservedNames);
    expect(response).toEqual({
      ok: false,
      failure: 'too-complex',
      message: `the webarchive unfolds into more than ${MAX_WEBARCHIVE_ENTRIES} frames and resources`,
    });
  });

  it('refuses a few shared subframes too, as the reader does (Apple never shares frames)', () => {
    const response = previewResponse('webarchive', sharedFrameWebarchive(3), reservedNames);
    expect(response).toMatchObject({ ok: false });
    expect(JSON.stringify(response)).toMatch(/reuses a frame/);
  });

  it('previews ordinary webarchives', () => {
    const file = makeWebarchive({ html: '<p>plain</p>', url: 'https://example.com/' });
    expect(previewResponse('webarchive', file, reservedNames).ok).toBe(true);
  });
});

describe('frame embedding', () => {
  it('counts every embedding of a frame against the size budget, cached or not', () => {
    const page = 'https://example.com/';
    const frame = 'https://example.com/frame.html';
    const text = `FRAME-TEXT-${'x'.repeat(1000)}`;
    const file = makeMhtml(
      [
        { type: 'text/html', location: page, body: `<iframe src="${frame}"></iframe>`.repeat(50) },
        { type: 'text/html', location: frame, body: `<p>${text}</p>` },
      ],
      page,
    );
    const { parts } = buildPreview('mhtml', file, {
      reservedNames: new Set(reservedNames),
      limits: { ...DEFAULT_LIMITS, maxFrameChars: 5000 },
    });
    const html = parts.map((part) => part.html).join('');
    const embedded = html.split('FRAME-TEXT-').length - 1;
    expect(embedded).toBeGreaterThan(0);
    expect(embedded).toBeLessThanOrEqual(5);
    expect(html.split('<iframe').length - 1).toBe(50);
  });
});
