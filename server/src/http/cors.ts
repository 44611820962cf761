import type { FastifyInstance } from 'fastify';
import { API_PREFIX, isApiPath } from './api-paths.ts';

const ALLOWED_METHODS = 'GET, HEAD, PUT, POST, DELETE, PATCH';
const ALLOWED_HEADERS = 'authorization, content-type';

/**
 * Like HamsterBase: the API echoes the request's Origin so that a browser app on another origin can
 * call it (the bearer token, not cookies, is the credential). Preflights need no token.
 */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    reply.header('access-control-allow-methods', ALLOWED_METHODS);
    reply.header('access-control-allow-headers', ALLOWED_HEADERS);
    reply.header('access-control-max-age', '600');
  });
  app.options(`${API_PREFIX}/*`, async (_request, reply) => reply.code(204).send());
}
