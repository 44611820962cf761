// Builds the server bundle once before the journeys, so every journey starts the server as
// `npm start` does (`node server/dist/main.js`): no TypeScript loader compiling the server's sources
// at each of the suite's few hundred starts, which on a busy machine took longer than the start bound.
import { buildServer } from '../../server/build.ts';

export default async function globalSetup(): Promise<void> {
  await buildServer();
}
