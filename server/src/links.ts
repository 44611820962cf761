export interface ParsedLink {
  /** The normalised URL. */
  link: string;
  /** Lowercase host, with the port when it is not the default one. */
  host: string;
}

/** An absolute http(s) URL with a host, or undefined. */
export function parseHttpLink(value: string): ParsedLink | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '') return undefined;
  return { link: url.href, host: url.host.toLowerCase() };
}

/** The host of a stored link, null when there is no link or it has no host. */
export function hostOf(link: string | null): string | null {
  if (link === null) return null;
  try {
    const host = new URL(link).host.toLowerCase();
    return host === '' ? null : host;
  } catch {
    return null;
  }
}
