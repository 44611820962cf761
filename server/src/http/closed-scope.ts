// Scopes outside the API (feeds, part links) answer one way to everything they do not serve: a
// 404 that tells nothing, never cached, for any other path or method under their prefix.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FailureEnvelope } from './envelope.ts';

/** The scope's one refusal: `envelope` as JSON, 404, `no-store`. */
export function refuse(reply: FastifyReply, envelope: FailureEnvelope): FastifyReply {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(envelope);
}

/** Routes every other path and method under the scope's prefix to `refuse(envelope)`. */
export function refuseTheRest(scope: FastifyInstance, envelope: FailureEnvelope): void {
  for (const url of ['/', '/*']) {
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      handler: async (_request, reply) => refuse(reply, envelope),
    });
  }
}
