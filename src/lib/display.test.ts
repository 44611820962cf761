import { describe, expect, it } from 'vitest';

import { captureTime, formatBytes, formatRelativeTime, toIsoDate } from './display.ts';

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

describe('formatRelativeTime', () => {
  const now = Date.UTC(2024, 5, 15, 12);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

  it('picks the largest fitting unit', () => {
    expect(formatRelativeTime(now - 30_000, now)).toBe(rtf.format(-30, 'second'));
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe(rtf.format(-5, 'minute'));
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe(rtf.format(-3, 'hour'));
    expect(formatRelativeTime(now - 86_400_000, now)).toBe(rtf.format(-1, 'day'));
    expect(formatRelativeTime(now - 3 * 365 * 86_400_000, now)).toBe(rtf.format(-3, 'year'));
    expect(formatRelativeTime(now + 2 * 86_400_000, now)).toBe(rtf.format(2, 'day'));
  });

  it('says nothing wrong about non-dates', () => {
    expect(formatRelativeTime(Number.NaN, now)).toBe('–');
  });
});
