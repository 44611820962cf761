import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, HEAD, PUT, POST, DELETE, PATCH';
const ALLOWED_HEADERS = 'authorization, content-type';
/** Answer headers a page on another origin may read (the list's total: openapi/archive.yaml). */
const EXPOSED_HEADERS = 'x-total-count';

/**
 * Like HamsterBase: the API echoes the request's Origin so that a browser app on another origin can
 * call it (the bearer token, not cookies, is the credential). Installed in the API's scope
 * (`api-scope.ts`): its hook runs for the API's routes only.
 */
export function installCors(api: FastifyInstance): void {
  api.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    reply.header('access-control-allow-methods', ALLOWED_METHODS);
    reply.header('access-control-allow-headers', ALLOWED_HEADERS);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    reply.header('access-control-max-age', '600');
  });
}
