/** The outcome of one item of a batch: its value, or why it failed (the others may still succeed). */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Group commit: items submitted while a batch is being made durable wait, and go together in the
 * next batch, so that concurrent writers share the syncs and the transaction instead of paying
 * them one after the other. The first item of an idle group waits for the end of the current
 * turn of the event loop, so that items submitted in the same turn share its batch. Each item's
 * promise settles when its batch is done (durable), with its own outcome.
 */
export class GroupCommit<T, R> {
  private waiting: { item: T; resolve: (value: R) => void; reject: (error: unknown) => void }[] =
    [];
  private draining = false;

  constructor(
    /** Makes a batch durable; one outcome per item, in order. */
    private readonly commit: (items: readonly T[]) => Promise<Settled<R>[]>,
    /** At most this many items in a batch. */
    private readonly maxBatch = 256,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      let outcomes: Settled<R>[];
      try {
        outcomes = await this.commit(batch.map((entry) => entry.item));
      } catch (error) {
        outcomes = batch.map(() => ({ ok: false, error }));
      }
      for (const [index, entry] of batch.entries()) {
        const outcome = outcomes[index];
        if (outcome === undefined) entry.reject(new Error('the batch gave no outcome for an item'));
        else if (outcome.ok) entry.resolve(outcome.value);
        else entry.reject(outcome.error);
      }
    }
    this.draining = false;
  }
}
