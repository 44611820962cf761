import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { OriginalFile } from '../../../api/original-file.ts';
import type { PreviewRequest, PreviewResponse } from '../document/build-preview.ts';
import { buildPreviewAhead } from './build-ahead.ts';
import { usePreviewDocument, type BuildPreview } from './use-preview-document.ts';

const FILE: OriginalFile = { encoding: 'bytes', blob: new Blob(['<p>page</p>']) };
const FIRST = { strings: ['<html><body data-folio-part="n-0"><p>', '</p>'], refs: [0] };

let created: string[];
let revoked: string[];
const { createObjectURL, revokeObjectURL } = URL;

beforeEach(() => {
  created = [];
  revoked = [];
  URL.createObjectURL = () => {
    created.push(`blob:${created.length + 1}`);
    return created.at(-1)!;
  };
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});

afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

/** A worker that tells a long page's first part, then answers once `finish` is called. */
function longPageBuild(tail: string) {
  let finish = () => {};
  const answered = new Promise<void>((resolve) => (finish = resolve));
  const build: BuildPreview = async (_request, _signal, options) => {
    options?.onFirstPart?.({ first: FIRST, resources: [new Blob(['a'])] });
    await answered;
    const response: PreviewResponse = {
      ok: true,
      shadowRoots: false,
      resources: [new Blob(['a']), new Blob(['b'])],
      parts: [
        { into: null, template: FIRST },
        { into: 'n-0', template: { strings: ['<img src="', '">'], refs: [1] } },
        { into: null, template: { strings: [tail], refs: [] } },
      ],
    };
    return response;
  };
  return { build, finish: () => finish() };
}

describe('usePreviewDocument for a long page', () => {
  it('shows the first part at once, then keeps it and adds the pieces, each URL made once', async () => {
    const { build, finish } = longPageBuild('</body></html>');
    const { result, unmount } = renderHook(() => usePreviewDocument(FILE, 'html', build));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current).toMatchObject({
      html: '<html><body data-folio-part="n-0"><p>blob:1</p>',
      pieces: null,
      whole: null,
      shadowRoots: true,
    });

    await act(async () => finish());
    await waitFor(() => expect(result.current).toMatchObject({ pieces: [{}] }));
    expect(result.current).toEqual({
      status: 'ready',
      // The frame keeps the document it has: what the answer adds to it is end tags.
      html: '<html><body data-folio-part="n-0"><p>blob:1</p>',
      pieces: [{ into: 'n-0', html: '<img src="blob:2">' }],
      whole: '<html><body data-folio-part="n-0"><p>blob:1</p><img src="blob:2"></body></html>',
      shadowRoots: false,
      urls: ['blob:1', 'blob:2'],
      partsBase: null,
    });
    expect(created).toEqual(['blob:1', 'blob:2']);
    unmount();
    expect(revoked).toEqual(['blob:1', 'blob:2']);
  });

  it('loads the whole document again when the answer has content the first part lacks', async () => {
    const { build, finish } = longPageBuild('</body><p>after the body</p></html>');
    const { result } = renderHook(() => usePreviewDocument(FILE, 'html', build));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(async () => finish());
    await waitFor(() => expect(result.current).toMatchObject({ pieces: [{}] }));
    expect(result.current).toMatchObject({
      html: '<html><body data-folio-part="n-0"><p>blob:1</p></body><p>after the body</p></html>',
    });
  });
});

describe('usePreviewDocument with a build started ahead (by the route’s loader)', () => {
  it('shows the build started ahead, first part included, and starts none of its own', async () => {
    const file: OriginalFile = { encoding: 'bytes', blob: new Blob(['<p>long</p>']) };
    const { build: ahead, finish } = longPageBuild('</body></html>');
    buildPreviewAhead(file, 'html', ahead);
    const own: PreviewRequest[] = [];
    const build: BuildPreview = (request) => {
      own.push(request);
      return new Promise(() => {});
    };
    const { result, unmount } = renderHook(() => usePreviewDocument(file, 'html', build));
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', pieces: null }));
    await act(async () => finish());
    await waitFor(() => expect(result.current).toMatchObject({ pieces: [{}] }));
    expect(own).toEqual([]);
    // The loader again while it is shown (another search): nothing built twice.
    const again: PreviewRequest[] = [];
    buildPreviewAhead(file, 'html', (request) => {
      again.push(request);
      return new Promise(() => {});
    });
    expect(again).toEqual([]);
    unmount();

    // Shown again, with nothing built ahead: its own build.
    renderHook(() => usePreviewDocument(file, 'html', build));
    expect(own).toHaveLength(1);
  });
});
