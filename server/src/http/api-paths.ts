/** Everything under this prefix is the API: JSON answers only, bearer token, CORS. */
export const API_PREFIX = '/public/api';

export function isApiPath(url: string): boolean {
  return (
    url === API_PREFIX ||
    url.startsWith(`${API_PREFIX}/`) ||
    url.startsWith(`${API_PREFIX}?`) ||
    url.startsWith(`${API_PREFIX}#`)
  );
}
