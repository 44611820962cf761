// Parts of the page that load after the first paint, each in its own chunk (the views list, the
// keyboard shortcuts, the drop zone, the token banner). When a chunk cannot be loaded (the server
// went away before it came), the page goes on without that part instead of failing as a whole;
// the next load of the app brings it back. Any other error still reaches the route's boundary.
import { Component, Suspense, type ReactNode } from 'react';

/** A chunk of the app that could not be loaded (network, server gone). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

/** Wraps a dynamic import so that its failure is a `ChunkLoadError` (for `lazy`). */
export function loadingChunk<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((cause: unknown) => {
      throw new ChunkLoadError('a part of the app could not be loaded', { cause });
    });
}

interface OptionalPartState {
  error: unknown;
}

/** Renders `children` (lazy parts) once loaded; nothing when their chunk cannot be loaded. */
export class OptionalPart extends Component<{ children: ReactNode }, OptionalPartState> {
  override state: OptionalPartState = { error: null };

  static getDerivedStateFromError(error: unknown): OptionalPartState {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error instanceof ChunkLoadError) return null;
    if (error !== null) throw error;
    return <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
