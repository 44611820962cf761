// The ingest worker (ingest-thread.ts): records small uploads' pages in groups, with a database
// connection of its own. The pages that arrive while a group is being written wait and go together
// in the next (group commit): one transaction, the full-text index's terms written once. Each is
// answered once its group is committed.
import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { configureConnection } from './database.ts';
import { GroupCommit } from './group-commit.ts';
import {
  CLOSE,
  type IngestReply,
  type IngestRequest,
  type IngestWorkerData,
} from './ingest-messages.ts';
import { LabelStore } from './labels.ts';
import { recordGroup, type PageRecord } from './webpage-ingest.ts';
import { WebpageStore } from './webpages.ts';

const port = parentPort;
if (port === null) throw new Error('ingest-worker runs in a worker thread (ingest-thread.ts)');

const data = workerData as IngestWorkerData;
const db = new BetterSqlite3(data.database);
configureConnection(db);
const webpages = new WebpageStore(db, new LabelStore(db));
const group = new GroupCommit<PageRecord, void>((items) =>
  Promise.resolve(recordGroup(db, webpages, items)),
);

/** Requests not answered yet; the connection closes once none is left after CLOSE. */
let unanswered = 0;
let closing = false;

function answer(reply: IngestReply): void {
  port?.postMessage(reply);
  unanswered--;
  if (closing && unanswered === 0) close();
}

function close(): void {
  db.close();
  port?.close();
}

port.on('message', (message: IngestRequest | typeof CLOSE) => {
  if (message === CLOSE) {
    closing = true;
    if (unanswered === 0) close();
    return;
  }
  const { seq, page, now, original } = message;
  unanswered++;
  group.submit({ page, now, original }).then(
    () => answer({ seq }),
    (error: unknown) =>
      answer({
        seq,
        error: {
          message: error instanceof Error ? error.message : String(error),
          code: (error as NodeJS.ErrnoException | undefined)?.code,
        },
      }),
  );
});
