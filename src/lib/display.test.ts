import { describe, expect, it } from 'vitest';

import { captureTime, formatBytes, toIsoDate } from './display.ts';

describe('formatBytes', () => {
  it('uses powers of 1000 with one decimal below 10', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 kB');
    expect(formatBytes(12_345_678)).toBe('12 MB');
    expect(formatBytes(-1)).toBe('–');
  });
});

describe('captureTime', () => {
  it('treats values below 1e11 (HamsterBase day-of-month) as unknown', () => {
    expect(captureTime(21)).toBeNull();
    expect(captureTime(0)).toBeNull();
    expect(captureTime(1_700_000_000_000)).toBe(1_700_000_000_000);
  });
});

describe('toIsoDate', () => {
  it('formats valid dates and skips invalid ones', () => {
    expect(toIsoDate(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(toIsoDate(Number.NaN)).toBeUndefined();
  });
});
