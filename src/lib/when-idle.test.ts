import { afterEach, describe, expect, it, vi } from 'vitest';

import { whenIdle } from './when-idle.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('runs once the browser is idle, with the time limit given, and not once cancelled', () => {
    const callbacks = new Map<number, () => void>();
    const options: (IdleRequestOptions | undefined)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void, given?: IdleRequestOptions) => {
      callbacks.set(callbacks.size + 1, callback);
      options.push(given);
      return callbacks.size;
    });
    vi.stubGlobal('cancelIdleCallback', (handle: number) => callbacks.delete(handle));
    const run = vi.fn();
    whenIdle(run, 3000);
    const cancel = whenIdle(run);
    expect(options).toEqual([{ timeout: 3000 }, undefined]);
    expect(run).not.toHaveBeenCalled();
    cancel();
    for (const callback of callbacks.values()) callback();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('without idle callbacks, runs after the time limit (or a second), and not once cancelled', () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.useFakeTimers();
    const run = vi.fn();
    whenIdle(run, 3000);
    whenIdle(run);
    whenIdle(run)();
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
