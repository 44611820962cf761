import type { FastifyInstance } from 'fastify';

/**
 * The app's own pages: scripts from this origin only; `connect-src *` because the app may talk to
 * a HamsterBase server on another origin; archived pages are previewed in blob:/data: frames.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "frame-src 'self' blob: data: about:",
  "worker-src 'self' blob:",
  'connect-src *',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('referrer-policy', 'no-referrer');
    }
    return payload;
  });
}
