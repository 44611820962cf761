// Folio's server started inside the calling process, configured by environment variables as
// `npm start` configures it (main.ts), without main's signal handling and printed address. The
// end-to-end tests start one per test this way (from a bundle, e2e/support/server.ts): a Node
// process per test cost ~0.45 s of CPU to start, a server in the worker ~0.1 s.
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig, type Env } from './config.ts';

export interface EmbeddedServer {
  /** Origin, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Stops the server: requests in progress finish, connections are closed after 2 s at most. */
  close(): Promise<void>;
}

export async function startEmbeddedServer(env: Env): Promise<EmbeddedServer> {
  const config = loadConfig(env);
  const app = await buildApp({ ...config, allowedHosts: config.allowedHosts ?? 'any' });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const { address, port } = app.server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    async close() {
      // As main.ts on SIGTERM: a connection that never sent a request does not count as idle.
      const force = setTimeout(() => app.server.closeAllConnections(), 2000);
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
    },
  };
}
