import { afterEach, describe, expect, it, vi } from 'vitest';

import { MAX_PREVIEW_INPUT_BYTES } from '../document/budgets.ts';
import type { PreviewRequest, PreviewResponse } from '../document/build-preview.ts';
import {
  PREVIEW_BUDGET_DEBUG_KEY,
  PREVIEW_TIME_BUDGET_MS,
  previewTimeBudgetMs,
  runPreviewWorker,
  WorkerInWaiting,
} from './run-preview-worker.ts';

/** A worker whose parse never ends: it takes the request and never answers. */
class RunawayWorker {
  onmessage: ((event: { data: PreviewResponse }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  posted: unknown[] = [];
  terminated = false;

  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
}

const request: PreviewRequest = {
  ext: 'webarchive',
  file: { encoding: 'bytes', blob: new Blob(['\0\0\0']) },
  reservedNames: [],
};

function start(workers: RunawayWorker[]) {
  return () => {
    const worker = new RunawayWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  };
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('runPreviewWorker', () => {
  it('terminates a runaway worker at its time budget and answers "too complex"', async () => {
    vi.useFakeTimers();
    const workers: RunawayWorker[] = [];
    let settled: PreviewResponse | undefined;
    void runPreviewWorker(request, new AbortController().signal, { start: start(workers) }).then(
      (response) => (settled = response),
    );
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted).toEqual([request]);

    await vi.advanceTimersByTimeAsync(PREVIEW_TIME_BUDGET_MS - 1);
    expect(settled).toBeUndefined();
    expect(workers[0]!.terminated).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(workers[0]!.terminated).toBe(true);
    expect(settled).toEqual({
      ok: false,
      failure: 'too-complex',
      message: 'the preview took longer than 20 s',
    });
  });

  it('starts a fresh worker for the next preview after a terminated one', async () => {
    vi.useFakeTimers();
    const workers: RunawayWorker[] = [];
    const first = runPreviewWorker(request, new AbortController().signal, {
      start: start(workers),
      budgetMs: 50,
    });
    await vi.advanceTimersByTimeAsync(50);
    expect((await first).ok).toBe(false);

    const second = runPreviewWorker(request, new AbortController().signal, {
      start: start(workers),
      budgetMs: 50,
    });
    expect(workers).toHaveLength(2);
    const answer: PreviewResponse = {
      ok: true,
      parts: [{ into: null, template: { strings: ['ok'], refs: [] } }],
      resources: [],
      shadowRoots: false,
    };
    workers[1]!.onmessage?.({ data: answer });
    expect(await second).toEqual(answer);
    expect(workers.map((worker) => worker.terminated)).toEqual([true, true]);
    // The answer came in time: no budget left running.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not even start a worker for a file past the size bound', async () => {
    const workers: RunawayWorker[] = [];
    // HamsterBase's envelope: its base64 decodes to one byte past the bound. Only sizes are read.
    const envelopeSize = Math.ceil((MAX_PREVIEW_INPUT_BYTES + 1) / 3) * 4 + 4;
    const response = await runPreviewWorker(
      {
        ...request,
        file: { encoding: 'base64-json', blob: { size: envelopeSize } as Blob },
      },
      new AbortController().signal,
      { start: start(workers) },
    );
    expect(response).toMatchObject({ ok: false, failure: 'too-complex' });
    expect(workers).toHaveLength(0);
  });
});

describe('previewTimeBudgetMs', () => {
  it('is 20 s, and the debug key can only lower it', () => {
    expect(previewTimeBudgetMs()).toBe(20_000);
    localStorage.setItem(PREVIEW_BUDGET_DEBUG_KEY, '250');
    expect(previewTimeBudgetMs()).toBe(250);
    for (const ignored of ['60000', '20000', '0', '-5', '1.5', 'soon', '']) {
      localStorage.setItem(PREVIEW_BUDGET_DEBUG_KEY, ignored);
      expect(previewTimeBudgetMs(), ignored).toBe(20_000);
    }
  });
});

describe('a worker started ahead of its preview', () => {
  it('is the next preview’s worker, given its request only then, and used once', async () => {
    const workers: RunawayWorker[] = [];
    const waiting = new WorkerInWaiting(start(workers));
    waiting.warm();
    waiting.warm();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted).toEqual([]);

    const controller = new AbortController();
    const run = runPreviewWorker(request, controller.signal, { start: waiting.take });
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted).toEqual([request]);
    controller.abort();
    await expect(run).rejects.toBeDefined();
    expect(workers[0]!.terminated).toBe(true);

    // The next preview, with none waiting: a new worker.
    void runPreviewWorker(request, new AbortController().signal, { start: waiting.take });
    expect(workers).toHaveLength(2);
    expect(workers[1]!.posted).toEqual([request]);
  });

  it('is let go when its script could not load, and the preview starts another', () => {
    const workers: RunawayWorker[] = [];
    const waiting = new WorkerInWaiting(start(workers));
    waiting.warm();
    let prevented = false;
    workers[0]!.onerror?.({ message: 'failed to load', preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    const worker = waiting.take();
    expect(workers[0]!.terminated).toBe(true);
    expect(worker).toBe(workers[1]);
  });
});
