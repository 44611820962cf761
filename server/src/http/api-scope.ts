import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticate } from '../auth.ts';
import type { ApiSpec } from '../spec.ts';
import { installCors } from './cors.ts';
import { notFound } from './errors.ts';
import { OperationRegistry } from './operations.ts';

/** Everything under this prefix is the API: JSON answers only, CORS, and a token. */
export const API_PREFIX = '/public/api';

/**
 * Registers the API as Fastify scopes, so that access is a property of where a route lives, never
 * of how its URL is spelled (the router decodes `%61`, folds what a path may spell in several
 * ways; the request-target check refuses the rest):
 *
 * ```
 * /public/api            CORS hook for everything below
 * ├── (preflight)        OPTIONS /*: no token (browsers send none)
 * └── (token)            onRequest hook: an accepted token, or 401 — deny by default
 *     ├── /, /*          a JSON 404 for any other path and method
 *     └── /v1            every operation of the contract (its server path)
 * ```
 *
 * A route registered under (token) cannot be reached without one: the hook belongs to the scope,
 * not to a list of paths. `registerOperations` adds the handlers; the registry checks that every
 * operation of the contract has one.
 */
export async function registerApi(
  app: FastifyInstance,
  spec: ApiSpec,
  authenticate: Authenticate,
  registerOperations: (registry: OperationRegistry) => void,
): Promise<void> {
  if (!spec.basePath.startsWith(`${API_PREFIX}/`)) {
    throw new Error(`the contract's server path ${spec.basePath} is not under ${API_PREFIX}`);
  }
  await app.register(
    async (api) => {
      installCors(api);
      await api.register(async (preflight) => {
        preflight.options('/*', async (_request, reply) => reply.code(204).send());
      });
      await api.register(async (guarded) => {
        guarded.addHook('onRequest', async (request) => authenticate(request));
        for (const url of ['/', '/*']) {
          guarded.route({
            method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
            url,
            handler: unknown,
          });
        }
        await guarded.register(
          async (operations) => {
            const registry = new OperationRegistry(operations, spec);
            registerOperations(registry);
            registry.assertComplete();
          },
          { prefix: spec.basePath.slice(API_PREFIX.length) },
        );
      });
    },
    { prefix: API_PREFIX },
  );
}

const SHOWN_PATH = 120;

async function unknown(request: FastifyRequest): Promise<never> {
  const path = request.url.split('?')[0] ?? '';
  const shown = path.length > SHOWN_PATH ? `${path.slice(0, SHOWN_PATH)}…` : path;
  throw notFound(`no such API endpoint: ${request.method} ${shown}`);
}
