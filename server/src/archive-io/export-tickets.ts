import { randomBytes } from 'node:crypto';
import type { ExportSelection } from './export-format.ts';

/** How long a download link works. */
export const EXPORT_LINK_TTL_MS = 60_000;
/** Most links waiting at once (older ones are dropped first). */
const MAX_WAITING = 64;

/**
 * Download links of exports: a ticket is 256 random bits naming a selection; it works once and
 * until it expires. Kept in memory: a restart forgets them (they are for a download that starts
 * right away).
 */
export class ExportTickets {
  private readonly waiting = new Map<string, { selection: ExportSelection; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  issue(selection: ExportSelection): { ticket: string; expiresAt: number } {
    this.sweep();
    while (this.waiting.size >= MAX_WAITING) {
      const oldest = this.waiting.keys().next().value;
      if (oldest === undefined) break;
      this.waiting.delete(oldest);
    }
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + EXPORT_LINK_TTL_MS;
    this.waiting.set(ticket, { selection, expiresAt });
    return { ticket, expiresAt };
  }

  /** The selection of a live ticket, which is used up; undefined for any other text. */
  redeem(ticket: string): ExportSelection | undefined {
    this.sweep();
    const entry = this.waiting.get(ticket);
    if (entry === undefined) return undefined;
    this.waiting.delete(ticket);
    return entry.selection;
  }

  private sweep(): void {
    const now = this.now();
    for (const [ticket, entry] of this.waiting) {
      if (entry.expiresAt <= now) this.waiting.delete(ticket);
    }
  }
}
