import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { paths } from '../lib/paths.ts';
import { BusyIndicator } from './busy-indicator.tsx';
import { RouteFocus } from './route-focus.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';
import { ToastViewport } from './toast-viewport.tsx';
import { useShortcuts } from './use-shortcuts.ts';

const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog.tsx').then((module) => ({ default: module.ShortcutsDialog })),
);

/**
 * What the layout adds after the first paint (it is loaded lazily): the notifications region, the
 * progress bar for anything slower than a second, the app-wide shortcuts (`?` help, `u` upload),
 * the shortcuts dialog, focus management on route changes and scroll restoration on back/forward
 * (neither has anything to do before the first navigation).
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
      <ScrollRestoration />
      <RouteFocus />
      <BusyIndicator />
      <ToastViewport />
      {helpOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
