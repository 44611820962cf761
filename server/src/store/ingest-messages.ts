// The messages between the main thread (ingest-thread.ts) and the ingest worker (ingest-worker.ts).
import type { NewWebpage } from './webpages.ts';

/** What the worker needs to open the archive. */
export interface IngestWorkerData {
  /** The database file. */
  database: string;
}

/** A page to record: its file is stored already, or its bytes are `original` (small). */
export interface IngestRequest {
  seq: number;
  page: NewWebpage;
  now: number;
  original?: Uint8Array;
}

/** The worker's answer for one request: durable, or why not. */
export interface IngestReply {
  seq: number;
  error?: { message: string; code?: string };
}

/** Ends the worker once the requests it has are answered. */
export const CLOSE = 'close';
