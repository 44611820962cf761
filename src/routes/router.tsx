import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router-dom';

import { PageLoading } from '../components/skeleton.tsx';
import { routePatterns } from '../lib/paths.ts';
import * as root from './root-route.tsx';
import { NotFound, RouteErrorBoundary } from './route-error-boundary.tsx';
import * as webpages from './webpages-route.tsx';
import { loadWebpageRoute } from './load-webpage-route.ts';

/** What a route module exports: a loader factory taking the QueryClient, and its components. */
interface RouteModule {
  loader?: (queryClient: QueryClient) => LoaderFunction;
  Component: ComponentType;
  ErrorBoundary?: ComponentType;
  HydrateFallback?: ComponentType;
}

function fromModule(module: RouteModule, queryClient: QueryClient) {
  return {
    ...(module.loader ? { loader: module.loader(queryClient) } : {}),
    Component: module.Component,
    ...(module.ErrorBoundary ? { ErrorBoundary: module.ErrorBoundary } : {}),
  };
}

/** A route loaded on first visit (its code is a separate chunk). */
function lazyRoute(
  path: string,
  queryClient: QueryClient,
  load: () => Promise<RouteModule>,
): RouteObject {
  return {
    path,
    // Shown when the app starts on this route, until its code and data are in.
    HydrateFallback: PageLoading,
    lazy: async () => fromModule(await load(), queryClient),
  };
}

/** Child paths are relative to the layout route. */
const child = (pattern: string) => pattern.replace(/^\//, '');

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: routePatterns.home,
      Component: root.Component,
      ErrorBoundary: root.ErrorBoundary,
      children: [
        {
          index: true,
          loader: webpages.loader(queryClient),
          Component: webpages.Component,
          ErrorBoundary: webpages.ErrorBoundary,
          HydrateFallback: webpages.HydrateFallback,
        },
        lazyRoute(child(routePatterns.webpage), queryClient, loadWebpageRoute),
        lazyRoute(child(routePatterns.views), queryClient, () => import('./views-route.tsx')),
        lazyRoute(child(routePatterns.viewNew), queryClient, () => import('./view-new-route.tsx')),
        lazyRoute(child(routePatterns.view), queryClient, () => import('./view-route.tsx')),
        lazyRoute(
          child(routePatterns.viewEdit),
          queryClient,
          () => import('./view-edit-route.tsx'),
        ),
        lazyRoute(child(routePatterns.upload), queryClient, () => import('./upload-route.tsx')),
        lazyRoute(child(routePatterns.settings), queryClient, () => import('./settings-route.tsx')),
        lazyRoute(child(routePatterns.search), queryClient, () => import('./search-route.tsx')),
        lazyRoute(
          child(routePatterns.highlights),
          queryClient,
          () => import('./highlights-route.tsx'),
        ),
        { path: '*', Component: NotFound, ErrorBoundary: RouteErrorBoundary },
      ],
    },
    // Full window: outside the layout.
    lazyRoute(
      routePatterns.webpagePreview,
      queryClient,
      () => import('./webpage-preview-route.tsx'),
    ),
  ];
}

export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
