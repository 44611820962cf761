// The linked parts decoded ahead of their request: each kept for one request, within a bound of
// bytes and of time; past either, nothing is kept and the request reads the file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DecodedParts, partKey } from '../src/routes/decoded-parts.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('linked parts decoded ahead', () => {
  it('gives a part once, decoded after the work queued before it', async () => {
    const parts = new DecodedParts(1000, 60_000);
    const order: string[] = [];
    expect(parts.schedule(partKey('a', 0, 10), 10, () => (order.push('a'), Buffer.from('A')))).toBe(
      true,
    );
    expect(
      parts.schedule(partKey('a', 10, 20), 10, () => (order.push('b'), Buffer.from('B'))),
    ).toBe(true);
    expect(order).toEqual([]); // nothing decoded in the caller's turn
    expect(await parts.take(partKey('a', 10, 20))).toEqual(Buffer.from('B'));
    expect(order).toEqual(['a', 'b']);
    expect(parts.take(partKey('a', 10, 20))).toBeUndefined();
    expect(await parts.take(partKey('a', 0, 10))).toEqual(Buffer.from('A'));
    expect(parts.heldBytes).toBe(0);
  });

  it('keeps nothing past its bound of bytes, nor twice the same part', () => {
    const parts = new DecodedParts(100, 60_000);
    expect(parts.schedule(partKey('a', 0, 60), 60, () => Buffer.alloc(60))).toBe(true);
    expect(parts.schedule(partKey('a', 0, 60), 60, () => Buffer.alloc(60))).toBe(false);
    expect(parts.schedule(partKey('b', 0, 60), 60, () => Buffer.alloc(60))).toBe(false);
    expect(parts.take(partKey('b', 0, 60))).toBeUndefined();
    expect(parts.heldBytes).toBe(60);
  });

  it('forgets a part nobody asked for in time', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const parts = new DecodedParts(100, 1000);
    parts.schedule(partKey('a', 0, 10), 10, () => Buffer.alloc(10));
    vi.advanceTimersByTime(999);
    expect(parts.heldBytes).toBe(10);
    vi.advanceTimersByTime(1);
    expect(parts.heldBytes).toBe(0);
    expect(parts.take(partKey('a', 0, 10))).toBeUndefined();
  });

  it('answers a failed decoding with its error, and holds nothing for it', async () => {
    const parts = new DecodedParts(100, 60_000);
    parts.schedule(partKey('a', 0, 10), 10, () => {
      throw new Error('broken');
    });
    const taken = parts.take(partKey('a', 0, 10));
    await expect(taken).rejects.toThrow('broken');
    expect(parts.heldBytes).toBe(0);
  });

  it('decodes once the answer is sent, or after its longest wait if it never is', async () => {
    const parts = new DecodedParts(100, 60_000, 50);
    let sent!: () => void;
    const answer = new Promise<void>((resolve) => (sent = resolve));
    const decoded: string[] = [];
    parts.schedule(partKey('a', 0, 1), 1, () => (decoded.push('a'), Buffer.from('a')), answer);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(decoded).toEqual([]);
    sent();
    expect(await parts.take(partKey('a', 0, 1))).toEqual(Buffer.from('a'));

    parts.schedule(partKey('b', 0, 1), 1, () => Buffer.from('b'), new Promise(() => {}));
    expect(await parts.take(partKey('b', 0, 1))).toEqual(Buffer.from('b'));
  });
});
