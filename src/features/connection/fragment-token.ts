// Folio's server prints its address with the token in the fragment (`http://host:port/#token=…`):
// the fragment never reaches a server or a Referer. On load, the token is stored for this origin and
// removed from the address bar (and so from the history) before the router starts.
import { saveConnectionSettings } from '../../lib/connection-settings.ts';

type WindowLike = Pick<Window, 'location' | 'history'>;

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * Takes `token=…` out of the address fragment: saves it with this origin as the base URL and
 * rewrites the address without it (other fragment parameters are kept). Returns whether a token
 * was found. `+` stays a plus sign (the fragment is not form-encoded).
 */
export function takeTokenFromFragment(win: WindowLike = window): boolean {
  const { hash, pathname, search, origin } = win.location;
  if (hash.length < 2) return false;
  const parts = hash.slice(1).split('&');
  const index = parts.findIndex((part) => part.startsWith('token='));
  if (index < 0) return false;

  const token = decode(parts[index]!.slice('token='.length))?.trim();
  parts.splice(index, 1);
  if (token) saveConnectionSettings({ baseUrl: origin, token });
  const rest = parts.filter(Boolean).join('&');
  win.history.replaceState(win.history.state, '', `${pathname}${search}${rest ? `#${rest}` : ''}`);
  return Boolean(token);
}
