// Formatting of sizes and dates for display. Locale-aware through Intl; no React.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A byte count for humans: 512 B, 1.5 kB, 12 MB (powers of 1000, like file managers). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A date (epoch ms) as a short local date. */
export function formatDate(epochMs: number): string {
  return Number.isFinite(epochMs) ? dateFormat.format(epochMs) : '–';
}

/** A date (epoch ms) as a local date and time. */
export function formatDateTime(epochMs: number): string {
  return Number.isFinite(epochMs) ? dateTimeFormat.format(epochMs) : '–';
}

const RELATIVE_STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];
let relativeFormat: Intl.RelativeTimeFormat | undefined;

/** A date (epoch ms) relative to `now`: "5 minutes ago", "yesterday", "in 2 days", "3 years ago". */
export function formatRelativeTime(epochMs: number, now: number = Date.now()): string {
  if (!Number.isFinite(epochMs)) return '–';
  relativeFormat ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  let value = (epochMs - now) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return relativeFormat.format(Math.round(value), unit);
    value /= size;
  }
  return formatDate(epochMs);
}

/**
 * The capture time of a webpage, or null when unknown. HamsterBase sends the day of the month (e.g.
 * 21) for html and webarchive files, so anything below 10^11 ms (March 1973) is not a real date.
 */
export function captureTime(createTime: number): number | null {
  return Number.isFinite(createTime) && createTime >= 1e11 ? createTime : null;
}

/** An epoch-ms date as ISO 8601 (for `<time dateTime>`), or undefined when it is not a date. */
export function toIsoDate(epochMs: number): string | undefined {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The title to show: the page's title, else its link, else "Untitled". Always plain text. */
export function displayTitle(item: { title: string; link?: string | null }): string {
  return item.title.trim() || item.link?.trim() || 'Untitled';
}
