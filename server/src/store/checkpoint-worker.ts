// The checkpoint worker (wal-checkpoints.ts): a connection of its own that runs a passive
// checkpoint of the write-ahead log at each message, and answers when it is done.
import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { configureConnection } from './database.ts';

const port = parentPort;
if (port === null)
  throw new Error('checkpoint-worker runs in a worker thread (wal-checkpoints.ts)');

/** What the worker needs: the database file. */
export interface CheckpointWorkerData {
  file: string;
}

/** Checkpoint now, or close the connection and end. */
export type CheckpointMessage = 'checkpoint' | 'close';

const db = new BetterSqlite3((workerData as CheckpointWorkerData).file);
configureConnection(db);

port.on('message', (message: CheckpointMessage) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  db.pragma('wal_checkpoint(PASSIVE)');
  port.postMessage('done');
});
