import { afterEach, describe, expect, it, vi } from 'vitest';

import type { OriginalFile } from '../../../api/original-file.ts';
import type {
  PreviewFirstPart,
  PreviewRequest,
  PreviewResponse,
} from '../document/build-preview.ts';
import type { PreviewWorkerOptions } from '../frame/run-preview-worker.ts';
import {
  ADOPT_WITHIN_MS,
  adoptPreviewBuild,
  buildPreviewAhead,
  notePreviewShown,
} from './build-ahead.ts';

/** A build that answers when told to, and records what it was given. */
function fakeBuild() {
  const runs: {
    request: PreviewRequest;
    signal: AbortSignal;
    options: PreviewWorkerOptions;
    answer: (response: PreviewResponse) => void;
  }[] = [];
  const build = (
    request: PreviewRequest,
    signal: AbortSignal,
    options: PreviewWorkerOptions = {},
  ) =>
    new Promise<PreviewResponse>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      runs.push({ request, signal, options, answer: resolve });
    });
  return { build, runs };
}

const file = (): OriginalFile => ({ encoding: 'bytes', blob: new Blob(['<p>x</p>']) });
const answer: PreviewResponse = {
  ok: true,
  template: { parts: ['<p>x</p>'], slots: [] },
  resources: [],
  shadowRoots: false,
} as unknown as PreviewResponse;
const firstPart = {
  first: { parts: ['<p>'], slots: [] },
  resources: [],
} as unknown as PreviewFirstPart;

let left: (() => void)[] = [];
afterEach(() => {
  // Nothing waits into the next test: a build of a file no test adopts stops the one waiting.
  const { build } = fakeBuild();
  buildPreviewAhead(file(), 'html', build);
  adoptPreviewBuild(file(), 'html', new AbortController().signal, () => {});
  for (const forget of left) forget();
  left = [];
  vi.useRealTimers();
});

describe('a preview built ahead', () => {
  it('is adopted by the preview of its file: the same build, its answer the adopter’s', async () => {
    const { build, runs } = fakeBuild();
    const html = file();
    buildPreviewAhead(html, 'html', build);
    buildPreviewAhead(html, 'html', build);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.request).toMatchObject({ file: html, ext: 'html' });

    // Another kind, or another file: not this build.
    const signal = new AbortController().signal;
    expect(adoptPreviewBuild(html, 'mhtml', signal, () => {})).toBeUndefined();
    expect(adoptPreviewBuild(file(), 'html', signal, () => {})).toBeUndefined();

    const adopted = adoptPreviewBuild(html, 'html', signal, () => {});
    expect(adopted).toBeDefined();
    runs[0]!.answer(answer);
    expect(await adopted!.response).toBe(answer);
    // Adopted once only.
    expect(adoptPreviewBuild(html, 'html', signal, () => {})).toBeUndefined();
  });

  it('hands a long page’s first part to its adopter, whether it came before or after', () => {
    const { build, runs } = fakeBuild();
    const early = file();
    buildPreviewAhead(early, 'html', build);
    runs[0]!.options.onFirstPart?.(firstPart);
    const seen: PreviewFirstPart[] = [];
    adoptPreviewBuild(early, 'html', new AbortController().signal, (part) => seen.push(part));
    expect(seen).toEqual([firstPart]);

    const late = file();
    buildPreviewAhead(late, 'html', build);
    const seenLate: PreviewFirstPart[] = [];
    adoptPreviewBuild(late, 'html', new AbortController().signal, (part) => seenLate.push(part));
    expect(seenLate).toEqual([]);
    runs[1]!.options.onFirstPart?.(firstPart);
    expect(seenLate).toEqual([firstPart]);
  });

  it('stops when its adopter goes away', async () => {
    const { build, runs } = fakeBuild();
    const html = file();
    buildPreviewAhead(html, 'html', build);
    const controller = new AbortController();
    const adopted = adoptPreviewBuild(html, 'html', controller.signal, () => {});
    expect(runs[0]!.signal.aborted).toBe(false);
    controller.abort();
    expect(runs[0]!.signal.aborted).toBe(true);
    await expect(adopted!.response).rejects.toBeDefined();
  });

  it('is stopped when nobody adopts it in time, or when another page’s build starts', () => {
    vi.useFakeTimers();
    const { build, runs } = fakeBuild();
    const first = file();
    buildPreviewAhead(first, 'html', build);
    vi.advanceTimersByTime(ADOPT_WITHIN_MS - 1);
    expect(runs[0]!.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(
      adoptPreviewBuild(first, 'html', new AbortController().signal, () => {}),
    ).toBeUndefined();

    buildPreviewAhead(file(), 'html', build);
    buildPreviewAhead(file(), 'html', build);
    expect(runs.map((run) => run.signal.aborted)).toEqual([true, true, false]);
  });

  it('is not started for a file whose preview a hook shows already', () => {
    const { build, runs } = fakeBuild();
    const html = file();
    const forget = notePreviewShown(html);
    buildPreviewAhead(html, 'html', build);
    expect(runs).toHaveLength(0);
    forget();
    buildPreviewAhead(html, 'html', build);
    expect(runs).toHaveLength(1);
    left.push(() => adoptPreviewBuild(html, 'html', new AbortController().signal, () => {}));
  });
});
