import { AboutPanel } from '../features/connection/components/about-panel.tsx';
import { SettingsPage } from '../features/connection/components/settings-page.tsx';
import { ThemeSettings } from '../features/connection/components/theme-settings.tsx';

export function Component() {
  return (
    <>
      <title>Settings · Folio</title>
      <SettingsPage>
        <ThemeSettings />
        <AboutPanel />
      </SettingsPage>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
