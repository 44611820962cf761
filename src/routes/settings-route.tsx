import { SettingsPage } from '../features/connection/components/settings-page.tsx';

export function Component() {
  return (
    <>
      <title>Settings · Folio</title>
      <SettingsPage />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
