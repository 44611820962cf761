// The linked parts of an MHTML page, held as the file has them while it is in memory anyway: the
// preview's linked MHTML (`binary-mhtml.ts`) reads the whole file to write its answer, and the
// browser asks for the linked parts right after (their links come in the answer's `Link` header).
// Holding them spares each request a second read of the file; a part is decoded only when it is
// asked for (a page opened again finds its parts in the browser's cache and asks for none).
// Bounded in bytes and in time: a part nobody asks for within `ttlMs` is let go, and a part past
// the bound is read again from the file when asked for (`part-links.ts`).

/** What a part is known by: its page and its byte range (the signature was checked before). */
export function partKey(id: string, start: number, end: number): string {
  return `${id}\u0000${start}\u0000${end}`;
}

interface Entry {
  decode: () => Buffer;
  size: number;
  timer: NodeJS.Timeout;
}

export class HeldParts {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly ttlMs = 30_000,
  ) {}

  /**
   * Holds a part for one `take`: `decode` gives its bytes from what is held, `size` bytes (the
   * encoded size, at least the decoded one). Returns false past the bound (nothing held).
   */
  hold(key: string, size: number, decode: () => Buffer): boolean {
    if (this.entries.has(key) || this.bytes + size > this.maxBytes) return false;
    const timer = setTimeout(() => this.drop(key), this.ttlMs);
    timer.unref();
    this.entries.set(key, { decode, size, timer });
    this.bytes += size;
    return true;
  }

  /**
   * The part's bytes, decoded now, if it is held; let go here once taken. `undefined` when it is
   * not held, or its decoding failed (the caller reads the file instead).
   */
  take(key: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.drop(key);
    try {
      return entry.decode();
    } catch {
      return undefined;
    }
  }

  /** Bytes held (for tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
