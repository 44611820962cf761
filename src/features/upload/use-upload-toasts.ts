// The app-wide message after a batch of uploads, wherever the user is by then.
import { useEffect, useEffectEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

import { showToast, type ToastAction } from '../../components/toast-store.ts';
import { paths } from '../../lib/paths.ts';
import { uploadQueue } from './upload-store.ts';
import { describeSummary, onUploadsFinished, type UploadSummary } from './upload-summary.ts';

/**
 * Shows a message each time the uploads in progress have all ended: what was added, what was
 * already in the archive and what failed, with "Open" for a single page and "Show uploads" for
 * failures seen from another page. Mount it once (the layout's global drop zone does).
 */
export function useUploadToasts(): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const report = useEffectEvent((summary: UploadSummary) => {
    const { webpageId, webpageTitle, ...toast } = describeSummary(summary);
    let action: ToastAction | undefined;
    if (webpageId) {
      action = {
        label: 'Open',
        accessibleLabel: `Open “${webpageTitle}”`,
        run: () => void navigate(paths.webpage(webpageId)),
      };
    } else if (toast.tone === 'error' && pathname !== paths.upload()) {
      action = { label: 'Show uploads', run: () => void navigate(paths.upload()) };
    }
    showToast({ ...toast, action });
  });
  useEffect(() => onUploadsFinished(uploadQueue, (summary) => report(summary)), []);
}
