// The pair of servers the tests of Folio's extensions compare: one answering as Folio, one as
// HamsterBase 0.9.2 (which ignores them), started before a file's tests and closed after.
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './test-server.ts';

export interface FolioAndHamster {
  folio: TestServer;
  hamster: TestServer;
}

/** Starts both before the file's tests (handing them to `use`) and closes them after. */
export function withFolioAndHamster(use: (servers: FolioAndHamster) => void): void {
  let started: FolioAndHamster | undefined;
  beforeAll(async () => {
    const [folio, hamster] = await Promise.all([
      startTestServer(),
      startTestServer({ asHamsterBase: true }),
    ]);
    started = { folio, hamster };
    use(started);
  });
  afterAll(async () => {
    if (started) await Promise.all([started.folio.close(), started.hamster.close()]);
  });
}
