// Links inside archived pages are attacker-controlled: only http(s) URLs ever become an href.

/** The URL when it is an absolute http or https URL, else null. */
export function safeHttpUrl(link: string | null | undefined): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/**
 * The host of a link (with its port, as the API's `host` filter expects it), or null when the link
 * is missing or not a URL.
 */
export function hostOf(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    return new URL(link).host || null;
  } catch {
    return null;
  }
}
