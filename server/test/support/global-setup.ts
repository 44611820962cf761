// Bundles the server and its command-line tools once before the server's tests, which start them
// as processes some hundred times: `node` on a bundle instead of `tsx` compiling the sources each
// time (see server/build.ts).
import { buildServer, TEST_BUNDLE_DIR } from '../../build.ts';

export async function setup(): Promise<void> {
  await buildServer({ outdir: TEST_BUNDLE_DIR, clis: true });
}
