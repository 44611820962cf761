import { notFound } from '../http/errors.ts';
import type { Store } from '../store/store.ts';
import type { HeldParts } from './held-parts.ts';
import type { components } from '../../../shared/contract/schema.gen.ts';
import { toWebpage } from './serialize.ts';

/** What the route modules share. */
export interface RouteContext {
  store: Store;
  /** Epoch ms; tests can move time. */
  now: () => number;
  maxUploadBytes: number;
  /** The time limit of an upload's parse (ms): past it, the upload is answered E0001. */
  parseTimeoutMs: number;
  ignoreViewFilterPatch: boolean;
  /** Search answers 404 (a test switch: a server without full-text search). */
  disableSearch: boolean;
  /** Answer as HamsterBase 0.9.2 where Folio extends it (a test switch). */
  asHamsterBase: boolean;
  version: string;
  /** Linked parts held from the answer that named them until their request (`held-parts.ts`). */
  heldParts: HeldParts;
  /** The key that signs part links now (`partLinkKeys` in `part-links.ts`). */
  partLinkKey: () => Buffer;
}

export const WEBPAGE_NOT_FOUND = 'webpage not found';

/** The full webpage (labels and highlights included), 404 when missing or deleted. */
export function loadWebpage(store: Store, id: string): components['schemas']['Webpage'] {
  const record = store.webpages.findLive(id);
  if (record === undefined) throw notFound(WEBPAGE_NOT_FOUND);
  return toWebpage(record, store.labels.of(id), store.highlights.of(id));
}
