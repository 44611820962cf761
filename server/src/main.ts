import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { isLoopbackHost, loadConfig } from './config.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
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
  const token = encodeURIComponent(config.token);
  console.log(`Folio is running at http://${urlHost(config.host)}:${port}/#token=${token}`);
  if (!isLoopbackHost(config.host)) {
    console.warn(
      `Warning: HOST=${config.host} is not a loopback address: anyone who can reach this ` +
        'machine can reach the archive (the token is the only protection).',
    );
  }
}

/** The host to put in the printed address (a browser cannot open 0.0.0.0 everywhere). */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((error: unknown) => {
  console.error(`Folio could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
