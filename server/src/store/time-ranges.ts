/**
 * The `first-add-time` filter's points in time, in the server's local time zone:
 * 0 start of today, 3 yesterday, 1 this week (Monday), 4 last week, 2 this month, 5 last month.
 */
export type TimePoint = 0 | 1 | 2 | 3 | 4 | 5;

export function startOf(point: TimePoint, now: number): number {
  const date = new Date(now);
  const year = date.getFullYear();
  const month = date.getMonth();
  const day = date.getDate();
  const sinceMonday = (date.getDay() + 6) % 7;
  switch (point) {
    case 0:
      return new Date(year, month, day).getTime();
    case 3:
      return new Date(year, month, day - 1).getTime();
    case 1:
      return new Date(year, month, day - sinceMonday).getTime();
    case 4:
      return new Date(year, month, day - sinceMonday - 7).getTime();
    case 2:
      return new Date(year, month, 1).getTime();
    case 5:
      return new Date(year, month - 1, 1).getTime();
  }
}
