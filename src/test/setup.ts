import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toastStore } from '../components/toast-store.ts';

// `findBy…` and `waitFor` wait on state; on a busy machine a render can take seconds, so they wait
// up to 10 s (a bound against a hang, never a speed check; a passing test waits only as long as
// the state takes).
configure({ asyncUtilTimeout: 10_000 });

// The files of a worker share one jsdom and one module graph (vite.config.ts, `isolate: false`):
// each test leaves the window and the app's module-level stores as it found them.
afterEach(() => {
  cleanup();
  toastStore.clear();
  // A file may choose the node environment (`@vitest-environment node`): no window there.
  if (typeof window === 'undefined') return;
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
