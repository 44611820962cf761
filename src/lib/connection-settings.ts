// Where the archive lives and the token to reach it, kept in localStorage. Read at call time by the
// API client, so a saved change applies to the next request.

export interface ConnectionSettings {
  /** The archive's base URL, without `/public/api/v1` and without a trailing slash. */
  baseUrl: string;
  token: string;
}

export const CONNECTION_STORAGE_KEY = 'folio.connection';
const API_PREFIX = '/public/api/v1';

/** The origin the app is served from: the default archive (Folio's server serves both). */
export function defaultBaseUrl(): string {
  return globalThis.location?.origin ?? 'http://localhost';
}

/**
 * A base URL as the user may type it (`host:port/`, `…/public/api/v1`) in canonical form, or null when
 * it is not an http(s) URL. Query and fragment are dropped.
 */
export function normalizeBaseUrl(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  return `${url.origin}${path}`;
}

/** The API root for a base URL: `{baseUrl}/public/api/v1`. */
export function apiBaseUrl(baseUrl: string): string {
  return `${normalizeBaseUrl(baseUrl) ?? baseUrl.replace(/\/+$/, '')}${API_PREFIX}`;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage disabled by the browser (privacy settings): settings live only for this page.
    return null;
  }
}

/** Settings kept for this page only, when localStorage refused them (disabled, full). */
let memory: ConnectionSettings | null = null;

export function loadConnectionSettings(): ConnectionSettings {
  const fallback = memory ?? { baseUrl: defaultBaseUrl(), token: '' };
  let raw: string | null;
  try {
    raw = storage()?.getItem(CONNECTION_STORAGE_KEY) ?? null;
  } catch {
    return fallback;
  }
  if (!raw) return fallback;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return fallback;
    const { baseUrl, token } = parsed as Record<string, unknown>;
    return {
      baseUrl: (typeof baseUrl === 'string' && normalizeBaseUrl(baseUrl)) || defaultBaseUrl(),
      token: typeof token === 'string' ? token : '',
    };
  } catch {
    return fallback;
  }
}

export function saveConnectionSettings(settings: ConnectionSettings): void {
  const value: ConnectionSettings = {
    baseUrl: normalizeBaseUrl(settings.baseUrl) ?? defaultBaseUrl(),
    token: settings.token.trim(),
  };
  const store = storage();
  try {
    if (!store) throw new Error('localStorage is not available');
    store.setItem(CONNECTION_STORAGE_KEY, JSON.stringify(value));
    memory = null;
  } catch {
    // Privacy settings or a full quota: keep the settings for this page at least.
    memory = value;
  }
}
