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
        document: { strings: ['<img src="', '"><video src="', '">'], refs: [0, 1] },
        resources: [
          new Blob([new Uint8Array([1, 2])], { type: 'image/png' }),
          new Blob([new Uint8Array([3])], { type: 'video/mp4' }),
        ],
      },
      (blob) => {
        blobs.push(blob);
        return `blob:u${blobs.length}`;
      },
    );
    expect(created).toEqual({
      html: '<img src="blob:u1"><video src="blob:u2">',
      urls: ['blob:u1', 'blob:u2'],
    });
    expect(blobs.map((blob) => blob.type)).toEqual(['image/png', 'video/mp4']);
    expect(await readBlob(blobs[0]!)).toEqual(new Uint8Array([1, 2]));
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
      document: { strings: ['', ' ', ''], refs: [0, 1] },
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
    expect(done).toEqual({ html: 'blob:0 blob:1', urls: ['blob:0', 'blob:1'] });

    const controller = new AbortController();
    const aborting = (blob: Blob) => {
      controller.abort(new Error('gone'));
      return `blob:${made++}:${blob.size}`;
    };
    await expect(
      materializePreviewInSlices(response, controller.signal, aborting, (url) => revoked.push(url)),
    ).rejects.toThrow('gone');
    expect(revoked).toEqual(['blob:2:1']);
  });
});
