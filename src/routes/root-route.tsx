import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';

import { AppLayout } from '../components/app-layout.tsx';
import { loadingChunk, OptionalPart } from '../components/optional-part.tsx';
import { SearchBox } from '../features/search/components/search-box.tsx';
import { paths } from '../lib/paths.ts';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

// None is needed for the first paint: they load right after it, in their own chunks.
const ViewsNav = lazy(
  loadingChunk(() =>
    import('../features/views/components/views-nav.tsx').then((module) => ({
      default: module.ViewsNav,
    })),
  ),
);
const LayoutExtras = lazy(
  loadingChunk(() =>
    import('../components/layout-extras.tsx').then((module) => ({ default: module.LayoutExtras })),
  ),
);
const GlobalDropZone = lazy(
  loadingChunk(() =>
    import('../features/upload/components/global-drop-zone.tsx').then((module) => ({
      default: module.GlobalDropZone,
    })),
  ),
);

/**
 * Prefetching on intent, and the detail's code warmed up when the browser is idle (see
 * `link-intent.ts`), loaded after the first paint.
 */
function useLinkIntentPrefetch() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stops: (() => void)[] = [];
    let unmounted = false;
    void import('./link-intent.ts').then(({ listenForLinkIntent, warmDetailRoute }) => {
      if (!unmounted) stops = [listenForLinkIntent(queryClient), warmDetailRoute()];
    });
    return () => {
      unmounted = true;
      for (const stop of stops) stop();
    };
  }, [queryClient]);
}

export function Component() {
  const navigate = useNavigate();
  useLinkIntentPrefetch();
  return (
    <AppLayout
      views={
        <OptionalPart>
          <ViewsNav />
        </OptionalPart>
      }
      search={<SearchBox />}
    >
      <Outlet />
      <OptionalPart>
        <LayoutExtras />
      </OptionalPart>
      <OptionalPart>
        <GlobalDropZone onFiles={() => void navigate(paths.upload())} />
      </OptionalPart>
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
