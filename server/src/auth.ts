import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './http/errors.ts';
import { hashToken, type TokenStore } from './store/tokens.ts';

/** Throws the 401 ApiError unless the request carries an accepted token. */
export type Authenticate = (request: FastifyRequest) => void;

/**
 * The token check: `Authorization: Bearer <token>` where the token is the default one
 * (`FOLIO_TOKEN` or `<data>/token`) or a token of the CLI that is not revoked. Tokens are compared
 * by their sha256 in constant time, against every candidate, and never logged.
 */
export function createAuthenticator(
  defaultToken: string,
  tokens: Pick<TokenStore, 'active' | 'touch'>,
  now: () => number,
  onTouchError: (error: unknown) => void = () => {},
): Authenticate {
  const defaultHash = hashToken(defaultToken);
  return (request) => {
    const header = request.headers.authorization?.trim();
    if (header === undefined || header === '') throw unauthorized('No authorization header');
    const presented = /^bearer\s+(\S.*)$/i.exec(header)?.[1];
    if (presented === undefined) throw unauthorized('Invalid token');
    const active = tokens.active();
    const index = matchToken(hashToken(presented), [defaultHash, ...active.map((t) => t.hash)]);
    if (index === -1) throw unauthorized('Invalid token');
    const token = active[index - 1];
    if (token === undefined) return;
    try {
      tokens.touch(token.id, now());
    } catch (error) {
      // Recording the last use must never refuse a valid token (e.g. a busy database).
      onTouchError(error);
    }
  };
}

/**
 * The index of the candidate equal to `presented` (sha256 digests), or -1. Every candidate is
 * compared, with `timingSafeEqual`, whatever matched before: the time taken depends only on the
 * number of candidates.
 */
export function matchToken(
  presented: Buffer,
  candidates: readonly Buffer[],
  equal: (a: Buffer, b: Buffer) => boolean = timingSafeEqual,
): number {
  let found = -1;
  candidates.forEach((candidate, index) => {
    const same = candidate.length === presented.length && equal(presented, candidate);
    if (same && found === -1) found = index;
  });
  return found;
}
