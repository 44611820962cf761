// The detail route's module, loaded through one import by the router (its lazy route) and by the
// warm-ups (`link-intent.ts`: the library idle, a pointer resting on a row): a click after a
// warm-up finds it in hand, and the route's loader starts without a round through the module
// loader (`importOnce`).
import { importOnce } from '../lib/import-once.ts';

export const loadWebpageRoute = importOnce(() => import('./webpage-route.tsx'));
