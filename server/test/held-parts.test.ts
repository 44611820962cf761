// The linked parts held from the answer that named them: each for one request, decoded then,
// within a bound of bytes and of time; past either, nothing is held and the request reads the file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { HeldParts, partKey } from '../src/routes/held-parts.ts';
import { Base64Decoder } from '../src/routes/part-links.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('linked parts held for their request', () => {
  it('gives a part once, decoded only when it is asked for', () => {
    const parts = new HeldParts(1000, 60_000);
    const decoded: string[] = [];
    const decode = (name: string) => () => (decoded.push(name), Buffer.from(name));
    expect(parts.hold(partKey('a', 0, 10), 10, decode('a'))).toBe(true);
    expect(parts.hold(partKey('a', 10, 20), 10, decode('b'))).toBe(true);
    expect(decoded).toEqual([]);
    expect(parts.take(partKey('a', 10, 20))).toEqual(Buffer.from('b'));
    expect(decoded).toEqual(['b']);
    expect(parts.take(partKey('a', 10, 20))).toBeUndefined();
    expect(parts.heldBytes).toBe(10);
    parts.clear();
    expect(parts.take(partKey('a', 0, 10))).toBeUndefined();
    expect(decoded).toEqual(['b']);
    expect(parts.heldBytes).toBe(0);
  });

  it('holds nothing past its bound of bytes, nor twice the same part', () => {
    const parts = new HeldParts(100, 60_000);
    expect(parts.hold(partKey('a', 0, 60), 60, () => Buffer.alloc(60))).toBe(true);
    expect(parts.hold(partKey('a', 0, 60), 60, () => Buffer.alloc(60))).toBe(false);
    expect(parts.hold(partKey('b', 0, 60), 60, () => Buffer.alloc(60))).toBe(false);
    expect(parts.take(partKey('b', 0, 60))).toBeUndefined();
    expect(parts.heldBytes).toBe(60);
  });

  it('lets go of a part nobody asked for in time', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const parts = new HeldParts(100, 1000);
    parts.hold(partKey('a', 0, 10), 10, () => Buffer.alloc(10));
    vi.advanceTimersByTime(999);
    expect(parts.heldBytes).toBe(10);
    vi.advanceTimersByTime(1);
    expect(parts.heldBytes).toBe(0);
    expect(parts.take(partKey('a', 0, 10))).toBeUndefined();
  });

  it('says nothing for a part whose decoding fails, and holds nothing for it', () => {
    const parts = new HeldParts(100, 60_000);
    parts.hold(partKey('a', 0, 10), 10, () => {
      throw new Error('broken');
    });
    expect(parts.take(partKey('a', 0, 10))).toBeUndefined();
    expect(parts.heldBytes).toBe(0);
  });
});

describe('a large part decoded as it streams', () => {
  it('gives the bytes whatever the pieces and line breaks', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, n) => (n * 7) % 256));
    const text = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
    for (const size of [1, 3, 77, 1000]) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < text.length; at += size) {
        pieces.push(Buffer.from(text.slice(at, at + size), 'latin1'));
      }
      const decoded: Buffer[] = [];
      for await (const piece of Readable.from(pieces).pipe(new Base64Decoder())) {
        decoded.push(piece as Buffer);
      }
      expect(Buffer.concat(decoded).equals(bytes)).toBe(true);
    }
  });
});
