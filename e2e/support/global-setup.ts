// Builds the server's bundle once before the journeys (server/dist-e2e): `main.js`, which a journey
// that stops and restarts its server runs as `npm start` does (`node server/dist/main.js`), and
// `embedded.js`, the same server started inside the test's worker (e2e/support/server.ts). No
// TypeScript loader compiles the server's sources at each of the suite's few hundred starts.
import { buildServer, E2E_BUNDLE_DIR } from '../../server/build.ts';

export default async function globalSetup(): Promise<void> {
  await buildServer({ outdir: E2E_BUNDLE_DIR, embedded: true });
}
