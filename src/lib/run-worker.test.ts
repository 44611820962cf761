import { describe, expect, it } from 'vitest';

import { runWorker, type RunWorkerOptions } from './run-worker.ts';

/** Stands in for a Web Worker: the test plays the worker's side through `emit`. */
class FakeWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  posted: unknown[] = [];
  terminated = false;
  prevented = false;

  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  message(data: unknown) {
    this.onmessage?.({ data });
  }
  error(message: string) {
    this.onerror?.({ message, preventDefault: () => (this.prevented = true) });
  }
}

type Message = { progress: number } | { done: string } | { failed: string };

function run(signal = new AbortController().signal) {
  const worker = new FakeWorker();
  const progress: number[] = [];
  const options: RunWorkerOptions<Message, string> = {
    name: 'the test worker',
    signal,
    onMessage: (message) => {
      if ('progress' in message) {
        progress.push(message.progress);
        return undefined;
      }
      if ('done' in message) return message.done;
      throw new Error(message.failed);
    },
    onBroken: (message) => `broken: ${message}`,
  };
  const result = runWorker(() => worker as unknown as Worker, { ask: 1 }, options);
  return { worker, progress, result };
}

describe('runWorker', () => {
  it('posts the request, waits through progress, resolves with the answer and terminates', async () => {
    const { worker, progress, result } = run();
    expect(worker.posted).toEqual([{ ask: 1 }]);
    worker.message({ progress: 0.5 });
    expect(worker.terminated).toBe(false);
    worker.message({ done: 'answer' });
    await expect(result).resolves.toBe('answer');
    expect(progress).toEqual([0.5]);
    expect(worker.terminated).toBe(true);
  });

  it('rejects with what onMessage throws', async () => {
    const { worker, result } = run();
    worker.message({ failed: 'bad bytes' });
    await expect(result).rejects.toThrow('bad bytes');
    expect(worker.terminated).toBe(true);
  });

  it('names the worker when it is broken', async () => {
    const unreadable = run();
    unreadable.worker.onmessageerror?.();
    await expect(unreadable.result).resolves.toBe(
      'broken: the test worker sent an unreadable message',
    );
    const failed = run();
    failed.worker.error('');
    await expect(failed.result).resolves.toBe('broken: the test worker could not start');
    expect(failed.worker.prevented).toBe(true);
    expect(failed.worker.terminated).toBe(true);
  });

  it('stops the worker when the caller aborts, and starts none when already aborted', async () => {
    const controller = new AbortController();
    const { worker, result } = run(controller.signal);
    controller.abort(new Error('left the page'));
    await expect(result).rejects.toThrow('left the page');
    expect(worker.terminated).toBe(true);

    let started = false;
    const aborted = runWorker(
      () => {
        started = true;
        return new FakeWorker() as unknown as Worker;
      },
      null,
      { name: 'w', signal: controller.signal, onMessage: () => 1, onBroken: () => 0 },
    );
    await expect(aborted).rejects.toThrow('left the page');
    expect(started).toBe(false);
  });
});
