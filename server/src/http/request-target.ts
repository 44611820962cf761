import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from './errors.ts';

/**
 * The request target and the Host header, checked for every request before anything else runs.
 *
 * Routing decodes `%61` to `a`, drops the `http://host` of an absolute-form target and folds what a
 * path may spell in several ways; any other reader of the raw URL could disagree with it on which
 * resource was asked. So only origin-form targets reach the routes, and only when their path has a
 * single reading: every segment decodes to text that is not a dot segment, holds no `/`, `\` or
 * control character, and no segment but the last is empty. Access itself is decided by where a
 * route is registered (`api-scope.ts`), never from the URL string; this check only refuses the
 * spellings that mean something else to something else.
 */
export function requestTargetProblem(target: string): string | undefined {
  if (!target.startsWith('/')) {
    return 'the request target must be a path; absolute-form targets (http://host/…) are not accepted';
  }
  const end = target.indexOf('?');
  const path = end === -1 ? target : target.slice(0, end);
  const segments = path.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment === '' && index < segments.length - 1) {
      return 'the path has an empty segment (//)';
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'the path has an invalid percent-encoding';
    }
    if (decoded === '.' || decoded === '..') return 'the path has a dot segment (. or ..)';
    for (const char of decoded) {
      const code = char.codePointAt(0) ?? 0;
      if (char === '/' || char === '\\') return 'the path has an encoded / or \\ inside a segment';
      if (code < 0x20 || code === 0x7f) return 'the path has a control character';
    }
  }
  return undefined;
}

/** Host names every loopback listener answers to (a port may follow). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The host name of a Host header, lower case, without its port (`[::1]` keeps its brackets), or
 * undefined when it is not a valid host.
 */
export function hostNameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || /[\s/?#@\\]/.test(header)) return undefined;
  try {
    const url = new URL(`http://${header}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/') return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export interface RequestTargetOptions {
  /**
   * Host names (lower case, without port) a request's Host header must name; `undefined` accepts
   * any. A server listening on loopback accepts only loopback names (and FOLIO_ALLOWED_HOSTS),
   * so a page of another site whose name was rebound to 127.0.0.1 cannot talk to it (DNS
   * rebinding).
   */
  allowedHosts: ReadonlySet<string> | undefined;
}

/**
 * Refuses, before routing decisions are used, a target that `requestTargetProblem` finds ambiguous
 * (400) and a Host that is not allowed (421). Registered on the root instance, first: it runs for
 * every route, the API's and the app's, and for the not-found handler.
 */
export function installRequestTargetCheck(
  app: FastifyInstance,
  options: RequestTargetOptions,
): void {
  app.addHook('onRequest', async (request) => {
    const problem = requestTargetProblem(request.raw.url ?? '');
    if (problem !== undefined) throw badRequest(problem);
    const allowed = options.allowedHosts;
    if (allowed === undefined) return;
    const host = hostNameOf(request.headers.host);
    if (host === undefined || !allowed.has(host)) {
      throw new ApiError(
        421,
        'misdirected',
        'this server does not answer to that host name (set FOLIO_ALLOWED_HOSTS to add one)',
      );
    }
  });
}
