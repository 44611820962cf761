import { createHash, randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';

/** A token as listed: never the token itself, which is only stored as its sha256. */
export interface TokenInfo {
  id: number;
  name: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last request made with it (recorded at most once a minute), else null. */
  lastUsedAt: number | null;
  /** Epoch ms of the revocation, else null. */
  revokedAt: number | null;
}

export interface ActiveToken {
  id: number;
  /** sha256 of the token. */
  hash: Buffer;
}

export type RevokeResult = 'revoked' | 'already-revoked' | 'not-found';

interface TokenRow {
  id: number;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** How often `last_used_at` is written for one token (a write per request would be wasteful). */
const TOUCH_INTERVAL_MS = 60_000;

export const MAX_TOKEN_NAME_LENGTH = 200;

/** The sha256 of a token: what the `api_tokens` table keeps, and what requests are compared by. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** 32 random bytes, base64url (43 characters), like the generated default token. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The API tokens made with `npm run token -- create` (the `api_tokens` table). Only hashes are
 * stored; the server reads the active ones on every request, so a token revoked by the CLI (another
 * process on the same database, WAL) is refused at once.
 */
export class TokenStore {
  private readonly insertToken: Statement<[string, Buffer, number]>;
  private readonly selectAll: Statement<[], TokenRow>;
  private readonly selectActive: Statement<[], ActiveToken>;
  private readonly selectRevoked: Statement<[number], { revokedAt: number | null }>;
  private readonly revokeToken: Statement<[number, number]>;
  private readonly touchToken: Statement<[number, number]>;
  private readonly countRevoked: Statement<[], number>;
  private readonly touched = new Map<number, number>();

  constructor(private readonly db: Database) {
    this.insertToken = db.prepare(
      'INSERT INTO api_tokens (name, hash, created_at) VALUES (?, ?, ?) RETURNING id',
    );
    this.selectAll = db.prepare(
      `SELECT id, name, created_at AS createdAt, last_used_at AS lastUsedAt,
         revoked_at AS revokedAt
       FROM api_tokens ORDER BY id`,
    );
    this.selectActive = db.prepare('SELECT id, hash FROM api_tokens WHERE revoked_at IS NULL');
    this.selectRevoked = db.prepare('SELECT revoked_at AS revokedAt FROM api_tokens WHERE id = ?');
    this.revokeToken = db.prepare(
      'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    );
    this.touchToken = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
    this.countRevoked = db
      .prepare<[], number>('SELECT count(*) FROM api_tokens WHERE revoked_at IS NOT NULL')
      .pluck();
  }

  /** Creates a token; the returned `token` is the only time it exists in clear. */
  create(name: string, now: number): { token: string; info: TokenInfo } {
    if (name.length > MAX_TOKEN_NAME_LENGTH) {
      throw new RangeError(`a token name is at most ${MAX_TOKEN_NAME_LENGTH} characters`);
    }
    const token = generateToken();
    const row = this.insertToken.get(name, hashToken(token), now) as { id: number };
    return {
      token,
      info: { id: row.id, name, createdAt: now, lastUsedAt: null, revokedAt: null },
    };
  }

  list(): TokenInfo[] {
    return this.selectAll.all();
  }

  /** The tokens that are not revoked, with their hashes (for the request check). */
  active(): ActiveToken[] {
    return this.selectActive.all();
  }

  /** How many tokens are revoked: a revocation is final, so this only grows. */
  revokedCount(): number {
    return this.countRevoked.get() ?? 0;
  }

  revoke(id: number, now: number): RevokeResult {
    return this.db.transaction((): RevokeResult => {
      const row = this.selectRevoked.get(id);
      if (row === undefined) return 'not-found';
      if (row.revokedAt !== null) return 'already-revoked';
      this.revokeToken.run(now, id);
      return 'revoked';
    })();
  }

  /** Records a use of the token (at most once a minute per token and process). */
  touch(id: number, now: number): void {
    const last = this.touched.get(id);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS && now >= last) return;
    this.touched.set(id, now);
    this.touchToken.run(now, id);
  }
}
