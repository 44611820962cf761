import { Outlet } from 'react-router-dom';

import { AppLayout } from '../components/app-layout.tsx';
import { ScrollRestoration } from '../components/scroll-restoration.tsx';
import { ViewsNav } from '../features/views/components/views-nav.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

export function Component() {
  return (
    <AppLayout views={<ViewsNav />}>
      <Outlet />
      <ScrollRestoration />
    </AppLayout>
  );
}

/** An error in the layout itself: shown inside a bare layout (no views list). */
export function ErrorBoundary() {
  return (
    <AppLayout>
      <RouteErrorBoundary />
    </AppLayout>
  );
}
