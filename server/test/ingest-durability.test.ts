// Ingest at scale keeps durability: uploads stored in groups (group commit) are acknowledged only
// once their group is on disk. The real server process takes 16 concurrent streams of small
// uploads (some of the same bytes, in the same groups), is killed with SIGKILL while uploads are
// in flight, and restarted on the same data folder: every acknowledged id is there, with
// identical bytes, and found by a search for its text (the full-text index, written by a thread of
// its own after the commits, catches up from the archive's log of changed texts).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, ok } from './support/api.ts';
import { spawnServer, type SpawnedServer } from './support/spawned-server.ts';

const CLIENTS = 16;
/** The crash comes once this many uploads are acknowledged (more are in flight). */
const KILL_AFTER = 150;
const TOKEN = 'ingest-durability-token';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function smallPage(name: string): Buffer {
  return Buffer.from(
    `<!DOCTYPE html><html><head><title>${name}</title></head><body>` +
      `<p>${name}: a small page, as a browser extension saves them.</p></body></html>\n`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'folio-ingest-'));
let running: SpawnedServer | undefined;

afterAll(async () => {
  await running?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ingest durability', () => {
  it('keeps every acknowledged upload of concurrent clients through SIGKILL and restart', async () => {
    running = await spawnServer({ dataDir, token: TOKEN });
    const server = running;
    const acknowledged = new Map<string, Buffer>();
    const names = new Map<string, string>();
    let killed = false;
    let inFlightAtCrash = 0;

    const client = async (index: number) => {
      // Bounded: a client stops after 400 uploads even if the crash never came.
      for (let step = 0; step < 400 && !killed; step++) {
        // Every fifth upload is of bytes another client sends at the same step (same id).
        const name = step % 5 === 0 ? `shared ${step}` : `page ${index}.${step}`;
        const bytes = smallPage(name);
        let response;
        try {
          response = await call(server, 'uploadWebpage', {
            body: { content: bytes.toString('base64'), ext: 'html' },
          });
        } catch {
          // No answer: the server is gone. The upload may or may not have been stored.
          if (!killed) throw new Error('an upload failed before the crash');
          inFlightAtCrash++;
          return;
        }
        expect(response.status, `upload of ${name}`).toBe(200);
        const data = response.body.data as { id: string };
        expect(data.id).toBe(sha256(bytes));
        acknowledged.set(data.id, bytes);
        names.set(data.id, name);
        if (acknowledged.size >= KILL_AFTER && !killed) {
          killed = true;
          process.kill(server.pid, 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    expect(killed, 'the uploads ended before the crash').toBe(true);
    expect(inFlightAtCrash, 'no upload was in flight at the crash').toBeGreaterThan(0);
    await server.kill('SIGKILL');

    running = await spawnServer({ dataDir, token: TOKEN });
    const restarted = running;
    const missing: string[] = [];
    for (const [id, bytes] of acknowledged) {
      const got = await call(restarted, 'getWebpage', { params: { id } });
      if (got.status !== 200) {
        missing.push(id);
        continue;
      }
      const content = await ok(restarted, 'getWebpageContent', { params: { id } });
      expect(Buffer.from(content, 'base64').equals(bytes), `the bytes of ${id}`).toBe(true);
    }
    expect(missing, 'acknowledged uploads missing after the crash').toEqual([]);
    const unfound: string[] = [];
    for (const [id, name] of names) {
      const found = await ok(restarted, 'searchWebpages', {
        query: { q: `"${name}: a small page"`, per_page: 5 },
      });
      if (!found.webpages.some((hit: { id: string }) => hit.id === id)) unfound.push(name);
    }
    expect(unfound, 'acknowledged uploads that a search does not find').toEqual([]);
    await restarted.kill('SIGTERM');
    running = undefined;
  }, 180_000);
});
