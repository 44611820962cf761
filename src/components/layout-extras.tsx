import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { paths } from '../lib/paths.ts';
import { ToastViewport } from './toast-viewport.tsx';
import { useShortcuts } from './use-shortcuts.ts';

const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog.tsx').then((module) => ({ default: module.ShortcutsDialog })),
);

/**
 * What the layout adds after the first paint (it is loaded lazily): the notifications region, the
 * app-wide shortcuts (`?` help, `u` upload) and the shortcuts dialog.
 */
export function LayoutExtras() {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  useShortcuts({
    '?': () => setHelpOpen(true),
    u: () => void navigate(paths.upload()),
  });
  return (
    <>
      <ToastViewport />
      {helpOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
