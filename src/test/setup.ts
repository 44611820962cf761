import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `findBy…` and `waitFor` wait on state; on a busy machine a render can take seconds, so they wait
// up to 10 s (a bound against a hang, never a speed check; a passing test waits only as long as
// the state takes).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});
