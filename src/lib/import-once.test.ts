import { describe, expect, it, vi } from 'vitest';

import { importOnce } from './import-once.ts';

describe('importOnce', () => {
  it('loads once, and once loaded answers in a microtask, without the loader again', async () => {
    const module = { name: 'route' };
    const load = vi.fn(() => Promise.resolve(module));
    const get = importOnce(load);
    const [first, second] = await Promise.all([get(), get()]);
    expect(first).toBe(module);
    expect(second).toBe(module);
    expect(load).toHaveBeenCalledTimes(1);

    // Loaded: the answer is the settled promise (a microtask, not the module loader's round).
    let got: unknown;
    void get().then((value) => (got = value));
    await Promise.resolve();
    expect(got).toBe(module);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed load', async () => {
    const module = { name: 'route' };
    const load = vi
      .fn<() => Promise<typeof module>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(module);
    const get = importOnce(load);
    await expect(get()).rejects.toThrow('Failed to fetch');
    await expect(get()).resolves.toBe(module);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
