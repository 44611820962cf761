import { useMutation } from '@tanstack/react-query';

import { apiClient } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { lacksOperation } from '../../../api/server-capabilities.ts';
import { showToast } from '../../../components/toast-store.ts';
import { loadConnectionSettings } from '../../../lib/connection-settings.ts';

/** What to export: everything (`{}`), a view's pages, or the given pages. */
export type ExportSelection = { viewId: string } | { ids: string[] } | Record<string, never>;

/** Said when the server has no export (a HamsterBase). */
export const NO_EXPORT_REASON =
  'This server cannot export (it is not a Folio server). Copy it into a Folio archive with ' +
  '`npm run copy -- --from <url> --from-token <token> --data-dir <dir>`, then export there.';

/**
 * Exports as a `.zip`: asks the server for a short-lived download link (an authenticated call) and
 * lets the browser download it natively, streamed to disk, never held in the page's memory.
 */
export function useExportWebpages() {
  return useMutation({
    mutationFn: async (selection: ExportSelection) => {
      let link: { url: string; expiresAt: number };
      try {
        link = await unwrap(apiClient.POST('/folio/export-links', { body: selection }));
      } catch (error) {
        if (lacksOperation(error)) throw new Error(NO_EXPORT_REASON, { cause: error });
        throw error;
      }
      const base = loadConnectionSettings().baseUrl.replace(/\/+$/, '');
      const anchor = document.createElement('a');
      anchor.href = `${base}${link.url}`;
      anchor.download = '';
      anchor.rel = 'noopener noreferrer';
      anchor.hidden = true;
      document.body.append(anchor);
      try {
        anchor.click();
      } finally {
        anchor.remove();
      }
    },
    onSuccess: () => showToast({ tone: 'success', message: 'The export is downloading (a .zip).' }),
    onError: (error) => showToast({ tone: 'error', message: `Could not export: ${error.message}` }),
  });
}
