import { data, type Params } from 'react-router-dom';

/** A path parameter that the route pattern guarantees; a 404 if it is somehow missing. */
export function requireParam(params: Params, name: string): string {
  const value = params[name];
  if (!value) throw data(`Missing ${name}`, { status: 404 });
  return value;
}
