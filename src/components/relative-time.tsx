import { formatDateTime, formatRelativeTime, toIsoDate } from '../lib/display.ts';

export interface RelativeTimeProps {
  /** Epoch ms. */
  value: number;
  className?: string;
  /** Before the exact date on hover, e.g. "Captured". */
  titlePrefix?: string;
}

/** A date relative to now ("3 days ago"), the exact date and time on hover (`title`). */
export function RelativeTime({ value, className, titlePrefix }: RelativeTimeProps) {
  const exact = formatDateTime(value);
  return (
    <time
      className={className}
      dateTime={toIsoDate(value)}
      title={titlePrefix ? `${titlePrefix} ${exact}` : exact}
    >
      {formatRelativeTime(value)}
    </time>
  );
}
