// A request that must leave even though the page is going away (`pagehide`): built and sent
// synchronously with `fetch(…, {keepalive: true})`, outside the typed client, whose middleware
// works asynchronously and rebuilds requests without `keepalive`.
import { apiBaseUrl, loadConnectionSettings } from '../lib/connection-settings.ts';

/** Sends `method path` (a path under `/public/api/v1`, already encoded) and ignores the answer. */
export function sendKeepalive(method: 'DELETE' | 'PATCH', path: string): void {
  const { baseUrl, token } = loadConnectionSettings();
  const headers = new Headers();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    globalThis
      .fetch(`${apiBaseUrl(baseUrl)}${path}`, { method, headers, keepalive: true })
      .catch(() => {});
  } catch {
    // The page is going away: nothing more can be done.
  }
}
