import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './http/api-paths.ts';
import { unauthorized } from './http/errors.ts';

/** Every API request needs `Authorization: Bearer <token>` (preflights excepted). */
export function installAuth(app: FastifyInstance, token: string): void {
  const expected = digest(token);
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || !isApiPath(request.url)) return;
    const header = request.headers.authorization?.trim();
    if (header === undefined || header === '') throw unauthorized('No authorization header');
    const presented = /^bearer\s+(\S.*)$/i.exec(header)?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw unauthorized('Invalid token');
    }
  });
}

/** Hashing first gives equal lengths, so the comparison takes the same time for any token. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
