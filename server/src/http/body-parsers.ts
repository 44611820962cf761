import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * JSON only. An empty body is no body (the SDK sends `Content-Type: application/json` without a
 * body on GET and DELETE); any other media type with a body is refused.
 */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    done(new ApiError(400, 'bad_request', 'Content-Type must be application/json'), undefined);
  });
}
