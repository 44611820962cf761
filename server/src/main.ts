import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig, startupLines } from './config.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ ...config, allowedHosts: config.allowedHosts ?? 'any' });

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in progress finish; a connection kept open for more (a browser tab) is closed as
    // soon as it is idle, not when its keep-alive times out (72 s).
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    // A connection that never sent a request does not count as idle: give requests in progress a
    // grace period, then close whatever is left.
    setTimeout(() => app.server.closeAllConnections(), 2000).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Folio could not shut down cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await app.listen({
    host: config.host,
    port: config.port,
    listenTextResolver: (address) => `listening on ${address}`,
  });
  const { port } = app.server.address() as AddressInfo;
  // The log writes through `process.stdout` too: its "listening" line is out already, and the
  // address is the last line, under the warning if there is one.
  console.log(startupLines(config.host, port, config.token).join('\n'));
}

main().catch((error: unknown) => {
  console.error(`Folio could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
