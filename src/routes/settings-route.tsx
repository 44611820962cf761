import { useQueryClient } from '@tanstack/react-query';

import { AboutPanel } from '../features/connection/components/about-panel.tsx';
import { SettingsPage } from '../features/connection/components/settings-page.tsx';
import { ThemeSettings } from '../features/connection/components/theme-settings.tsx';
import { CopyArchivePanel } from '../features/archive-copy/components/copy-archive-panel.tsx';
import { viewKeys } from '../features/views/api/view-keys.ts';
import { webpageKeys } from '../features/webpages/api/webpage-keys.ts';
import { ExportButton } from '../features/webpages/components/export-button.tsx';

export function Component() {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: webpageKeys.all }),
      queryClient.invalidateQueries({ queryKey: viewKeys.all }),
    ]);
  };
  return (
    <>
      <title>Settings · Folio</title>
      <SettingsPage>
        <ThemeSettings />
        <section className="settings-panel" aria-labelledby="export-title">
          <h2 id="export-title" className="section-title">
            Export
          </h2>
          <p className="muted">
            Every page and view as one .zip: the original files, folio-export.json (every field,
            highlights and views) and bookmarks.html. Restore it with{' '}
            <code>npm run restore -- &lt;zip&gt;</code>.
          </p>
          <ExportButton selection={{}} label="Export everything" />
        </section>
        <CopyArchivePanel onCopied={refresh} />
        <AboutPanel />
      </SettingsPage>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
