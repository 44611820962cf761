// The list API pages by `page` and `per_page` and has no total count. To show `perPage` items and
// know whether a next page exists, a client needs the items [start, start + perPage] (one more than
// it shows). This finds the smallest `per_page` whose aligned page covers that range, so a single
// request answers both questions: page 1 asks for perPage + 1 items, deeper pages for at most about
// twice as many.

export interface PageWindow {
  /** The API's 1-based `page`. */
  page: number;
  /** The API's `per_page`. */
  perPage: number;
  /** Index, in the API's answer, of the first item to show. */
  offset: number;
}

export function pageWindow(page: number, perPage: number): PageWindow {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`invalid page ${page}`);
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`invalid perPage ${perPage}`);
  const start = (page - 1) * perPage;
  // A window of size start + perPage + 1 on page 1 always works, so the loop ends.
  for (let size = perPage + 1; ; size++) {
    const offset = start % size;
    if (offset + perPage + 1 <= size) {
      return { page: (start - offset) / size + 1, perPage: size, offset };
    }
  }
}
