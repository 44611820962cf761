// The bytes of an MHTML page's linked parts, decoded while the file is in memory anyway: the
// preview's linked MHTML (`binary-mhtml.ts`) reads the whole file to write its answer, and the
// browser asks for the linked parts right after (their links come in the answer's `Link` header).
// Decoding them then, one per turn of the event loop once the answer is written, spares a second
// read of the file and keeps the server answering other requests meanwhile. Bounded in bytes and
// in time: a part nobody asks for within `ttlMs` is dropped, and a part past the bound is simply
// read again from the file when asked for (`part-links.ts`).

/** What a part is known by: its page and its byte range (the signature was checked before). */
export function partKey(id: string, start: number, end: number): string {
  return `${id}\u0000${start}\u0000${end}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

interface Entry {
  bytes: Promise<Buffer>;
  size: number;
  timer: NodeJS.Timeout;
}

export class DecodedParts {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly ttlMs = 30_000,
    private readonly maxWaitMs = 5_000,
  ) {}

  /**
   * Decodes with `decode` at a later turn of the event loop, once `after` has settled (the answer
   * that named the part is sent) and the work queued before it is done, and keeps the result for
   * one `take`. `size` bounds what it will hold (the encoded size,
   * which is at least the decoded one). Returns false when it is past the bound (nothing kept).
   */
  schedule(
    key: string,
    size: number,
    decode: () => Buffer,
    after: Promise<unknown> = Promise.resolve(),
  ): boolean {
    if (this.entries.has(key) || this.bytes + size > this.maxBytes) return false;
    // An answer that is never sent must not hold its parts' requests: they wait so long at most.
    const gate = Promise.race([after, delay(this.maxWaitMs)]);
    const bytes = new Promise<Buffer>((resolve, reject) => {
      this.queue = Promise.all([this.queue, gate]).then(
        () =>
          new Promise<void>((next) =>
            setImmediate(() => {
              try {
                resolve(decode());
              } catch (error) {
                reject(error as Error);
              }
              next();
            }),
          ),
      );
    });
    // Never an unhandled rejection: a failed decoding makes the request read the file instead.
    bytes.catch(() => this.drop(key));
    const timer = setTimeout(() => this.drop(key), this.ttlMs);
    timer.unref();
    this.entries.set(key, { bytes, size, timer });
    this.bytes += size;
    return true;
  }

  /** The part's bytes, if they were scheduled and not taken yet; forgotten here once taken. */
  take(key: string): Promise<Buffer> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.drop(key);
    return entry.bytes;
  }

  /** Bytes held or on their way (for tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.drop(key);
  }
}
