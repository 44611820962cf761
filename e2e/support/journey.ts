// The journeys' `test`: the shared fixtures (each test its own server and empty archive), with the
// browser context closed before that server stops. Chromium keeps spare connections open to a
// server it loaded a page from, and the server's shutdown waits for connections that never sent a
// request, so stopping it while the page is still open can hang until the test times out.
import { test as base } from './fixtures.ts';

export const test = base.extend({
  archive: async ({ archive, context }, use) => {
    await use(archive);
    await context.close();
  },
});

export { expect, type Archive } from './fixtures.ts';
