import { beforeAll, describe, expect, it } from 'vitest';
import { encodeBlobAsBase64, ENCODE_CHUNK_BYTES } from './encode-base64.ts';
import { installBlobReaders } from '../../test/uploads.ts';

beforeAll(installBlobReaders);

/** Reference base64 through btoa, one byte per char. */
function reference(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function pseudoRandomBytes(length: number, seed = 7): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

describe('encodeBlobAsBase64', () => {
  it('matches btoa for every length around the chunk boundaries', async () => {
    for (const length of [1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 100]) {
      const bytes = pseudoRandomBytes(length, length);
      const encoded = await encodeBlobAsBase64(new Blob([bytes]), () => {}, 6);
      expect(await encoded.text()).toBe(reference(bytes));
    }
  });

  it('reports progress after each chunk, ending at the total', async () => {
    const bytes = pseudoRandomBytes(10);
    const calls: [number, number][] = [];
    await encodeBlobAsBase64(new Blob([bytes]), (loaded, total) => calls.push([loaded, total]), 3);
    expect(calls).toEqual([
      [3, 10],
      [6, 10],
      [9, 10],
      [10, 10],
    ]);
  });

  it('returns an empty text for an empty blob without reporting progress', async () => {
    const calls: number[] = [];
    const encoded = await encodeBlobAsBase64(new Blob([]), (loaded) => calls.push(loaded));
    expect(await encoded.text()).toBe('');
    expect(calls).toEqual([]);
  });

  it('refuses chunk sizes that would break the base64 between chunks', async () => {
    await expect(encodeBlobAsBase64(new Blob(['abcd']), () => {}, 4)).rejects.toThrow(RangeError);
    expect(ENCODE_CHUNK_BYTES % 3).toBe(0);
  });
});
