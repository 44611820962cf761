import { describe, expect, it } from 'vitest';

import { settleWithConcurrency } from './concurrency.ts';

describe('settleWithConcurrency', () => {
  it('never runs more than the limit at once and keeps the order of outcomes', async () => {
    let running = 0;
    let peak = 0;
    const results = await settleWithConcurrency([1, 2, 3, 4, 5, 6, 7, 8, 9], 4, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 10 - n));
      running--;
      if (n % 3 === 0) throw new Error(`no ${n}`);
      return n * 10;
    });
    expect(peak).toBe(4);
    expect(results.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([
      10,
      20,
      'no 3',
      40,
      50,
      'no 6',
      70,
      80,
      'no 9',
    ]);
  });

  it('resolves at once with nothing to do', async () => {
    expect(await settleWithConcurrency([], 4, async () => 1)).toEqual([]);
  });
});
