import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/http/security-headers.ts';
import { fetchApiError } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const INDEX =
  '<!doctype html><html><head><title>Folio app</title></head><body><div id="root"></div></body></html>';

let staticDir: string;
let server: TestServer;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'folio-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), INDEX);
  writeFileSync(join(staticDir, 'assets', 'index-AbC123.js'), 'console.log("app");');
  // The build writes compressed copies beside each asset (vite.config.ts, precompress()).
  const asset = Buffer.from('console.log("app");');
  writeFileSync(join(staticDir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(asset));
  writeFileSync(join(staticDir, 'assets', 'index-AbC123.js.gz'), gzipSync(asset));
  writeFileSync(join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ staticDir });
});

afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});

function expectHtmlSecurityHeaders(response: Response) {
  expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('the app', () => {
  it('serves index.html at / without caching, with the security headers', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expectHtmlSecurityHeaders(response);
    expect(await response.text()).toBe(INDEX);
  });

  it('answers client routes with index.html', async () => {
    for (const path of ['/views', '/webpages/abc', '/settings', '/views/1234/edit?x=1']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expectHtmlSecurityHeaders(response);
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year', async () => {
    const response = await fetch(`${server.url}/assets/index-AbC123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toBe('console.log("app");');
  });

  it('sends the precompressed copy to a browser that accepts it', async () => {
    const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (done, fail) => {
        const req = request(
          `${server.url}/assets/index-AbC123.js`,
          { headers: { 'accept-encoding': 'br, gzip' } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', fail);
        req.end();
      },
    );
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(body).toString()).toBe('console.log("app");');
  });

  it('serves other files, revalidated', async () => {
    const response = await fetch(`${server.url}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('does not answer a missing asset with the app', async () => {
    const response = await fetch(`${server.url}/assets/missing-123.js`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('Folio app');
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const response = await fetchApiError(server, '/public/api/nope', {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('not_found');
  });

  it('does not serve files outside the folder', async () => {
    const response = await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`);
    expect(await response.text()).not.toContain('root:');
  });
});

describe('without a built app', () => {
  it('says how to build it', async () => {
    const bare = await startTestServer({ staticDir: join(tmpdir(), 'folio-does-not-exist') });
    try {
      const response = await fetch(`${bare.url}/views`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expectHtmlSecurityHeaders(response);
      expect(await response.text()).toContain('npm run build');
      const api = await fetchApiError(bare, '/public/api/v1/nope', {
        headers: { authorization: `Bearer ${bare.token}` },
      });
      expect(api.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
