import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.ts';

export const TEST_TOKEN = 'test-token-0123456789';

/** A clock the tests can set; it follows real time until set. */
export class TestClock {
  private fixed: number | undefined;

  now = (): number => this.fixed ?? Date.now();

  set(ms: number): void {
    this.fixed = ms;
  }

  advance(ms: number): void {
    this.fixed = this.now() + ms;
  }
}

export interface TestServer {
  /** Origin, e.g. http://127.0.0.1:40123 */
  url: string;
  token: string;
  dataDir: string;
  app: FastifyInstance;
  clock: TestClock;
  close(): Promise<void>;
}

export type TestServerOptions = Partial<AppOptions> & {
  /** Keep the data folder on close (to restart on it). */
  keepDataDir?: boolean;
};

/** buildApp on a fresh temp data folder with a known token, listening on a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { keepDataDir = false, ...appOptions } = options;
  const dataDir = appOptions.dataDir ?? mkdtempSync(join(tmpdir(), 'folio-server-test-'));
  const clock = new TestClock();
  const token = appOptions.token ?? TEST_TOKEN;
  const app = await buildApp({
    staticDir: join(dataDir, 'no-static-dir'),
    now: clock.now,
    ...appOptions,
    dataDir,
    token,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    dataDir,
    app,
    clock,
    async close() {
      await app.close();
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
