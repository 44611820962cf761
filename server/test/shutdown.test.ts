// A stop (SIGTERM, Ctrl+C) lets the requests in progress finish, then exits at once, even when a
// client (a browser tab) keeps its connection open for more requests.
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { spawnServer, type SpawnedServer } from './support/spawned-server.ts';

let dataDir: string;
let server: SpawnedServer | undefined;

afterEach(async () => {
  await server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('stopping the server', () => {
  it('finishes the upload in progress, then exits though the connection stays open', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-shutdown-'));
    // At the info level the log says when the upload has arrived and when the stop began: the
    // test acts on those, never after a guessed pause.
    server = await spawnServer({ dataDir, token: 'shutdown-token', env: { FOLIO_LOG: 'info' } });
    const running = server;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify({
      content: makeHtml({ title: 'Sent across a stop' }).toString('base64'),
      ext: 'html',
    });
    const half = Math.floor(body.length / 2);
    let finish: () => void = () => {};
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const upload = request(
        `${running.url}/public/api/v1/webpages`,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: 'Bearer shutdown-token',
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      upload.on('error', reject);
      upload.write(body.slice(0, half));
      finish = () => upload.end(body.slice(half));
    });
    // The upload is half-way (the server has its first half) when the stop comes.
    await vi.waitFor(() => expect(running.output()).toContain('incoming request'), {
      timeout: 30_000,
    });
    const stopped = Date.now();
    const exited = running.kill('SIGTERM').then(() => Date.now());
    await vi.waitFor(() => expect(running.output()).toContain('shutting down'), {
      timeout: 30_000,
    });
    finish();
    const result = await answer;
    expect(result.status, result.text).toBe(200);
    expect(JSON.parse(result.text)).toMatchObject({
      success: true,
      data: { title: 'Sent across a stop' },
    });
    const exitedAt = await exited;
    agent.destroy();
    // The connection was kept alive by the client: the process must not wait for it to time out
    // (72 s); the bound leaves a busy machine room and still tells the two apart.
    expect(exitedAt - stopped).toBeLessThan(30_000);
  });
});
