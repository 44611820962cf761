// The one openapi-fetch client. Base URL and token are read from the connection settings at call
// time (a middleware rewrites each request), so saving new settings applies to the next request.
import createClient, { type Client, type Middleware } from 'openapi-fetch';

import {
  apiBaseUrl,
  loadConnectionSettings,
  type ConnectionSettings,
} from '../lib/connection-settings.ts';
import { ApiError } from './errors.ts';
import type { paths } from '../../shared/contract/schema.gen.ts';

export type ApiClient = Client<paths>;

const API_PREFIX = '/public/api/v1';
// openapi-fetch needs an absolute base to build a Request; the middleware replaces it before any
// request leaves (`.invalid` is a reserved name that never resolves).
const PLACEHOLDER_BASE = `http://folio.invalid${API_PREFIX}`;

export interface ApiClientOptions {
  /** Called on every answer of this client with its HTTP status (the app tracks 401s with it). */
  onStatus?: (status: number) => void;
}

function connectionMiddleware(
  getSettings: () => ConnectionSettings,
  { onStatus }: ApiClientOptions,
): Middleware {
  return {
    async onRequest({ request }) {
      const { baseUrl, token } = getSettings();
      const placeholder = new URL(request.url);
      let target: URL;
      try {
        target = new URL(
          apiBaseUrl(baseUrl) + placeholder.pathname.slice(API_PREFIX.length) + placeholder.search,
        );
      } catch (error) {
        throw new ApiError({
          kind: 'offline',
          message: `The archive address "${baseUrl}" is not a valid URL`,
          cause: error,
        });
      }
      const headers = new Headers(request.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      // A Request cannot change its URL; rebuild it. The body is read once as a Blob (a stream body
      // would need `duplex`, which not every browser accepts).
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return new Request(target, {
        method: request.method,
        headers,
        body: hasBody ? await request.blob() : null,
        signal: request.signal,
        redirect: request.redirect,
        credentials: request.credentials,
      });
    },
    onResponse({ response }) {
      onStatus?.(response.status);
      return undefined;
    },
  };
}

/** A client bound to settings read at call time (the app's client, or the values of a form). */
export function createApiClient(
  getSettings: () => ConnectionSettings,
  options: ApiClientOptions = {},
): ApiClient {
  // Bind fetch late: tests (and devtools) may replace globalThis.fetch after this module loads.
  const client = createClient<paths>({
    baseUrl: PLACEHOLDER_BASE,
    fetch: (request) => globalThis.fetch(request),
  });
  client.use(connectionMiddleware(getSettings, options));
  return client;
}

type Listener = () => void;

/**
 * Whether the last answer of the app's client was a 401 (token missing or refused). The layout
 * subscribes to show a banner leading to the settings; a later successful answer clears it.
 */
export const authStatus = (() => {
  let unauthorized = false;
  const listeners = new Set<Listener>();
  const set = (value: boolean) => {
    if (value === unauthorized) return;
    unauthorized = value;
    for (const listener of listeners) listener();
  };
  return {
    isUnauthorized: () => unauthorized,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report(status: number) {
      if (status === 401) set(true);
      else if (status >= 200 && status < 300) set(false);
    },
    reset: () => set(false),
  };
})();

/** The app's client: the saved connection settings, 401s reported to `authStatus`. */
export const apiClient: ApiClient = createApiClient(loadConnectionSettings, {
  onStatus: authStatus.report,
});
