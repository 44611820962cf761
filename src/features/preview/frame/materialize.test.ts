import { describe, expect, it, vi } from 'vitest';

import { readBlob } from '../../../test/archives.ts';
import {
  fillTemplate,
  materializePreview,
  materializePreviewInSlices,
  revokeUrls,
} from './materialize.ts';

describe('materializePreview', () => {
  it('makes one blob: URL per resource, of its type, and fills the document', async () => {
    const blobs: Blob[] = [];
    const created = materializePreview(
      {
        ok: true,
        shadowRoots: false,
        parts: [
          {
            into: null,
            template: { strings: ['<img src="', '"><video src="', '">'], refs: [0, 1] },
          },
        ],
        resources: [
          new Blob([new Uint8Array([1, 2])], { type: 'image/png' }),
          new Blob([new Uint8Array([3])], { type: 'video/mp4' }),
        ],
      },
      (blob) => {
        blobs.push(blob as Blob);
        return `blob:u${blobs.length}`;
      },
    );
    expect(created).toEqual({
      html: '<img src="blob:u1"><video src="blob:u2">',
      pieces: [],
      whole: '<img src="blob:u1"><video src="blob:u2">',
      urls: ['blob:u1', 'blob:u2'],
    });
    expect(blobs.map((blob) => blob.type)).toEqual(['image/png', 'video/mp4']);
    expect(await readBlob(blobs[0]!)).toEqual(new Uint8Array([1, 2]));
  });

  it("keeps a long page's pieces apart from the document the frame loads, and whole", () => {
    let made = 0;
    const filled = materializePreview(
      {
        ok: true,
        shadowRoots: false,
        parts: [
          { into: null, template: { strings: ['<main p>', ''], refs: [0] } },
          { into: 'n-0', template: { strings: ['<p>', '</p>'], refs: [1] } },
          { into: 'n-0', template: { strings: ['<p>3</p>'], refs: [] } },
          { into: null, template: { strings: ['</main>'], refs: [] } },
        ],
        resources: [new Blob(['a']), new Blob(['b'])],
      },
      () => `blob:${++made}`,
    );
    expect(filled).toEqual({
      html: '<main p>blob:1</main>',
      pieces: [
        { into: 'n-0', html: '<p>blob:2</p>' },
        { into: 'n-0', html: '<p>3</p>' },
      ],
      whole: '<main p>blob:1<p>blob:2</p><p>3</p></main>',
      urls: ['blob:1', 'blob:2'],
    });
  });

  it('fills a template and revokes what it made', () => {
    expect(fillTemplate({ strings: ['a', 'b', ''], refs: [1, 0] }, ['X', 'Y'])).toBe('aYbX');
    const revoke = vi.fn();
    revokeUrls(['blob:1', 'blob:2'], revoke);
    expect(revoke.mock.calls).toEqual([['blob:1'], ['blob:2']]);
  });

  it('works in slices and revokes what it made when aborted', async () => {
    const response = {
      ok: true as const,
      shadowRoots: false,
      parts: [{ into: null, template: { strings: ['', ' ', ''], refs: [0, 1] } }],
      resources: [new Blob(['a']), new Blob(['b'])],
    };
    let made = 0;
    const revoked: string[] = [];
    const createUrl = () => `blob:${made++}`;
    const done = await materializePreviewInSlices(
      response,
      new AbortController().signal,
      createUrl,
      (url) => revoked.push(url),
    );
    expect(done).toEqual({
      html: 'blob:0 blob:1',
      pieces: [],
      whole: 'blob:0 blob:1',
      urls: ['blob:0', 'blob:1'],
    });

    const controller = new AbortController();
    const aborting = (blob: Blob | string) => {
      controller.abort(new Error('gone'));
      return `blob:${made++}:${(blob as Blob).size}`;
    };
    await expect(
      materializePreviewInSlices(response, controller.signal, aborting, (url) => revoked.push(url)),
    ).rejects.toThrow('gone');
    expect(revoked).toEqual(['blob:2:1']);
  });
});
