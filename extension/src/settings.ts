/** What the extension keeps in `chrome.storage.local`. */
export interface Settings {
  /** The archive's base URL (its API is at `{baseUrl}/public/api/v1`), normalised. */
  baseUrl: string;
  token: string;
  /** Where the app shows a page (`{appUrl}/webpages/{id}`); the base URL when empty. */
  appUrl: string;
  /** Labels given to every page saved. */
  labels: string[];
}

/** A base URL as kept: http(s), no credentials, query or fragment, no trailing slash. */
export function normalizeBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Labels typed as one text, comma-separated: trimmed, without empties and duplicates. */
export function parseLabels(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((label) => label.trim())
        .filter((label) => label !== ''),
    ),
  ];
}

/**
 * Where the app is: the setting, else the base URL (Folio's server serves the app at the root of
 * the address its API is under: server/src/static.ts).
 */
export function appUrlOf(settings: Pick<Settings, 'appUrl' | 'baseUrl'>): string {
  return normalizeBaseUrl(settings.appUrl) ?? settings.baseUrl;
}

/** The origin pattern the extension asks host permission for. */
export function originPattern(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/*`;
}
