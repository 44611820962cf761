import type { FastifyRequest } from 'fastify';
import type { ApiSpec } from '../spec.ts';

/** What a redacted value is logged as (pino's own word for the redacted headers). */
export const REDACTED = '[Redacted]';

/**
 * The request as the log shows it. The URL keeps its path, and of its query only the values of
 * parameters the contract declares (page, q, sort…): any other parameter, such as a token a client
 * put in the address (`?token=…`, `?access_token=…`), is logged by name with its value redacted,
 * like the Authorization header.
 */
export function requestLogSerializer(spec: ApiSpec) {
  const declared = new Set<string>();
  for (const operation of spec.operations.values()) {
    for (const parameter of operation.parameters) {
      if (parameter.in === 'query') declared.add(parameter.name);
    }
  }
  return (request: FastifyRequest) => ({
    method: request.method,
    url: isCapabilityRoute(request)
      ? redactLastSegment(request.url)
      : redactQuery(request.url, declared),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  });
}

/**
 * The route config of a route whose address is its own credential (a signed link's signature in
 * its last segment): the log shows the address without it.
 */
export const CAPABILITY_ROUTE = { capabilityInPath: true } as const;

function isCapabilityRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as { capabilityInPath?: unknown } | undefined;
  return config?.capabilityInPath === true;
}

/** The address with its last path segment (and any query) redacted. */
export function redactLastSegment(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return `${path.slice(0, path.lastIndexOf('/') + 1)}${REDACTED}`;
}

export function redactQuery(url: string, keep: ReadonlySet<string>): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const fields = url
    .slice(start + 1)
    .split('&')
    .map((field) => {
      const equals = field.indexOf('=');
      if (equals === -1) return field;
      const name = field.slice(0, equals);
      let decoded: string;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        decoded = name;
      }
      return keep.has(decoded) ? field : `${name}=${REDACTED}`;
    });
  return `${url.slice(0, start)}?${fields.join('&')}`;
}
