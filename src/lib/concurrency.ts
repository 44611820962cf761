// Run many requests with a cap on how many are in flight at once.

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Calls `run` for every item, at most `limit` at a time, and resolves (never rejects) with each
 * outcome in the order of `items`.
 */
export async function settleWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<Settled<R>[]> {
  const results = new Array<Settled<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await run(items[index]!, index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
