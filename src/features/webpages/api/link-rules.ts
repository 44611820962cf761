import { useQuery } from '@tanstack/react-query';

import { serverIdentityOptions } from '../../../api/server-capabilities.ts';
import { safeHttpUrl } from '../../../lib/urls.ts';

export const INVALID_LINK =
  'Enter an absolute http or https URL, such as https://example.com/page.';
export const LINK_REQUIRED = 'This server requires a link: it cannot remove one.';

export interface LinkRules {
  /** What the link field says under it. */
  hint: string;
  /** Why a value cannot be saved, or null. */
  validate: (value: string) => string | null;
}

/**
 * What the connected server does with a link: Folio's server removes it when it is emptied; a
 * HamsterBase refuses an empty link (as any value that is not a URL). Decided by the server's
 * identity (`/version`, asked once per server); until it is known, the server decides.
 */
export function useLinkRules(): LinkRules {
  const { data } = useQuery(serverIdentityOptions());
  const removable = data?.folio;
  return {
    hint:
      removable === true
        ? 'An absolute http or https URL; empty removes the link.'
        : removable === false
          ? 'An absolute http or https URL; this server requires a link.'
          : 'An absolute http or https URL.',
    validate: (value) => {
      const trimmed = value.trim();
      if (!trimmed) return removable === false ? LINK_REQUIRED : null;
      return safeHttpUrl(trimmed) ? null : INVALID_LINK;
    },
  };
}
