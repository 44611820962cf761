// The write-ahead log is checkpointed by a worker thread, not by the connection that commits (the
// server's main thread, whose checkpoints held every request for 20 to 65 ms).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/store.ts';

let dir: string | undefined;
let store: Store | undefined;

afterEach(async () => {
  await store?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('WAL checkpoints', () => {
  it('copy the writes into the database file without the writing connection checkpointing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-checkpoints-'));
    store = await openStore(dir);
    const file = join(dir, 'folio.db');
    // The writing connection's own threshold (64 MB) is far above what this writes (~8 MB of log);
    // the worker starts past 4 MB.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(4_096);
    const before = statSync(file).size;
    const insert = store.db.prepare(
      'INSERT INTO to_save (url, title, created_at) VALUES (?, ?, ?)',
    );
    store.db.transaction(() => {
      for (let n = 0; n < 10_000; n++) insert.run(`https://example.com/${n}`, 'x'.repeat(500), n);
    })();
    // Only a checkpoint writes the database file: the worker's.
    await until(() => statSync(file).size > before + 4_000_000, 'the database file grows');
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
  });
});
