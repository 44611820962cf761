// The web app manifest and its icons, as the server sends them from the built app: the manifest's
// media type (browsers ignore a manifest sent as anything else), no token needed (the browser
// fetches it without one), and the request-target and Host rules still apply to it.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

const PUBLIC_DIR = resolve(import.meta.dirname, '../../public');

let staticDir: string;
let server: TestServer;

beforeAll(async () => {
  // The built app's root holds public/'s files as they are (Vite copies them).
  staticDir = mkdtempSync(join(tmpdir(), 'folio-manifest-'));
  cpSync(PUBLIC_DIR, staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Folio</title>');
  server = await startTestServer({ staticDir });
});

afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});

/** A GET with the target and Host exactly as given. */
function rawGet(target: string, host: string): Promise<{ status: number; type: string }> {
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port: new URL(server.url).port, path: target, headers: { host } },
      (response) => {
        response.resume();
        response.on('end', () =>
          done({
            status: response.statusCode ?? 0,
            type: String(response.headers['content-type'] ?? ''),
          }),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('the web app manifest', () => {
  it('is sent as application/manifest+json, without a token, and is not an HTML page', async () => {
    const response = await fetch(`${server.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json(;|$)/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    // The HTML pages' policy is for pages; the manifest is data.
    expect(response.headers.get('content-security-policy')).toBeNull();
    const manifest = (await response.json()) as { icons: { src: string; type: string }[] };
    expect(manifest.icons.length).toBeGreaterThanOrEqual(3);
    for (const icon of manifest.icons) {
      const answer = await fetch(new URL(icon.src, server.url));
      expect(answer.status, icon.src).toBe(200);
      expect(answer.headers.get('content-type')?.split(';')[0], icon.src).toBe(icon.type);
    }
  });

  it('keeps the request-target and Host rules', async () => {
    const host = new URL(server.url).host;
    expect(await rawGet('/manifest.webmanifest', host)).toMatchObject({ status: 200 });
    expect((await rawGet('/manifest.webmanifest', 'rebound.example')).status).toBe(421);
    expect((await rawGet('/icons/../manifest.webmanifest', host)).status).toBe(400);
    expect((await rawGet('/icons/%2e%2e/manifest.webmanifest', host)).status).toBe(400);
    expect((await rawGet('//manifest.webmanifest', host)).status).toBe(400);
    expect((await rawGet(`http://${host}/manifest.webmanifest`, host)).status).toBe(400);
  });
});
