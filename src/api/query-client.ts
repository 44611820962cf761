import { QueryClient } from '@tanstack/react-query';

import { ApiError } from './errors.ts';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
    queryMeta: {
      /**
       * The query shows webpage records (a view's webpages): invalidated when a webpage changes,
       * since its key lives outside the webpages feature's key factory.
       */
      showsWebpages?: boolean;
    };
  }
}

const MAX_RETRIES = 2;

/** Retry what may pass on a second try (network, 5xx); never 4xx, parse or foreign answers. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES || !(error instanceof ApiError)) return false;
  if (error.kind === 'offline') return true;
  return error.kind === 'http' && (error.status ?? 0) >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
