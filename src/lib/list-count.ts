/** "1 webpage", "1,234 webpages"; with `more` (at least that many), "1,234+ webpages". */
export function countWebpages(count: number, more = false): string {
  if (more) return `${count.toLocaleString('en')}+ webpages`;
  return count === 1 ? '1 webpage' : `${count.toLocaleString('en')} webpages`;
}

export interface ListCountInput {
  /** 1-based page shown. */
  page: number;
  perPage: number;
  /** Rows shown on this page. */
  shown: number;
  /** Whether the server has more after this page. */
  hasNext: boolean;
  /** The server's total for the filters, when it gives one (Folio's `X-Total-Count`). */
  total?: number;
}

/**
 * How many webpages the list's filters match, in words. With the server's total: "123 webpages".
 * Without (HamsterBase): what the pages so far prove — "30+ webpages" while there is a next page,
 * the exact number on the last page — and nothing past the end (the number is unknown there).
 */
export function listCount({ page, perPage, shown, hasNext, total }: ListCountInput): string | null {
  if (total !== undefined) return countWebpages(total);
  const before = (page - 1) * perPage;
  if (shown === 0 && page > 1) return null;
  return countWebpages(before + shown, hasNext);
}
