import { formatDateTime, formatRelativeTime, toIsoDate } from '../lib/display.ts';

export interface RelativeTimeProps {
  /** Epoch ms. */
  value: number;
  className?: string;
}

/** A date relative to now ("3 days ago"), the exact date and time on hover (`title`). */
export function RelativeTime({ value, className }: RelativeTimeProps) {
  return (
    <time className={className} dateTime={toIsoDate(value)} title={formatDateTime(value)}>
      {formatRelativeTime(value)}
    </time>
  );
}
