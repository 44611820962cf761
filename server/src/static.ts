import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failure } from './http/envelope.ts';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Folio: the app is not built</title>
<h1>The app is not built yet</h1>
<p>The archive's API is running, but there is no built app to serve. Run <code>npm run build</code>
(or start with <code>npm start</code>, which builds it), then reload this page.</p>
</html>
`;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built app from `staticDir`: hashed files under /assets/ are cached for a year,
 * everything else (index.html) is revalidated. Any other GET outside the API gets index.html so
 * that client routes (/webpages/…, /views, /settings) load the app. Paths under the API's prefix
 * never get here: its scope answers them (`api-scope.ts`).
 */
export async function registerSpa(app: FastifyInstance, staticDir: string): Promise<void> {
  const built = existsSync(join(staticDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir,
      prefix: '/',
      wildcard: true,
      cacheControl: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); serve them when accepted.
      preCompressed: true,
      serveDotFiles: false,
      setHeaders: (reply, path) => {
        const inAssets = relative(staticDir, path).startsWith(`assets${sep}`);
        reply.header('cache-control', inAssets ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/assets/');
    if (!isPageRequest) {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send(failure('not_found', `no such file: ${request.method} ${path}`));
    }
    if (!built) return reply.code(200).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
