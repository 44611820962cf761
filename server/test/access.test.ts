// Access: every operation refuses a request without an accepted token, the server listens on
// loopback unless HOST says otherwise (and warns when it does not), and the app's pages carry the
// security headers.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, loadConfig, startupMessages } from '../src/config.ts';
import type { OperationId } from '../src/http/operations.ts';
import { loadSpec } from '../src/spec.ts';
import { call, operationUrl } from './support/api.ts';
import { spawnServer } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const spec = loadSpec();
let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'folio-access-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>',
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'export {};');
  server = await startTestServer({ staticDir });
});

afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});

/** Parameters that name nothing: the token check comes before anything is looked up. */
const PARAMS = { id: 'a'.repeat(64), view_id: 'v', highlight_id: 'h', link_id: '1' };

describe('the token', () => {
  const operations = [...spec.operations.keys()] as OperationId[];

  it.each(operations)('%s refuses a request without a token, or with a wrong one', async (op) => {
    const body = spec.operations.get(op)?.requestBody ? { title: 'x' } : undefined;
    const missing = await call(server, op, { params: PARAMS, body, token: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      success: false,
      error: 'unauthorized',
      message: 'No authorization header',
    });
    for (const authorization of [`Bearer ${server.token}x`, `Token ${server.token}`, 'Bearer']) {
      const wrong = await call(server, op, { params: PARAMS, body, authorization });
      expect(wrong.status, authorization).toBe(401);
      expect(wrong.body.message).toBe('Invalid token');
    }
  });

  it('lets preflights through without a token, and nothing else', async () => {
    const { url } = operationUrl(server, 'listWebpages');
    const preflight = await fetch(url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(await preflight.text()).toBe('');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(401);
  });

  it('is never needed for the app itself (it is typed in the app, not sent with pages)', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
  });
});

describe('listening', () => {
  it('defaults to 127.0.0.1', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-access-'));
    try {
      expect(loadConfig({ FOLIO_DATA_DIR: dataDir }).host).toBe('127.0.0.1');
      expect(loadConfig({ FOLIO_DATA_DIR: dataDir, HOST: ' ' }).host).toBe('127.0.0.1');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('warns when HOST is not a loopback address, and only then', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'folio.example']) {
      expect(startupMessages(host, 5178, 't').warning, host).toMatch(
        new RegExp(`^Warning: HOST=${host.replaceAll('.', '\\.')} is not a loopback address`),
      );
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      expect(startupMessages(host, 5178, 't').warning, host).toBeUndefined();
    }
    expect(startupMessages('0.0.0.0', 80, 'a b').address).toBe(
      'Folio is running at http://127.0.0.1:80/#token=a%20b',
    );
  });

  it('binds the real process to 127.0.0.1 when HOST is unset, and prints no warning', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-access-'));
    const proc = await spawnServer({ dataDir, env: { HOST: '' } });
    try {
      expect(new URL(proc.url).hostname).toBe('127.0.0.1');
      // The kernel's table of listening sockets says where it listens (Linux).
      if (existsSync('/proc/net/tcp')) {
        const port = proc.port.toString(16).toUpperCase().padStart(4, '0');
        const listening = [
          ...readFileSync('/proc/net/tcp', 'utf8').split('\n'),
          ...(existsSync('/proc/net/tcp6')
            ? readFileSync('/proc/net/tcp6', 'utf8').split('\n')
            : []),
        ]
          .map((line) => line.trim().split(/\s+/))
          .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${port}`))
          .map((fields) => fields[1]?.split(':')[0]);
        expect(listening).toEqual(['0100007F']);
      }
    } finally {
      await proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(proc.output()).not.toMatch(/Warning/);
  });
});

describe('security headers', () => {
  function directives(csp: string | null): Map<string, string[]> {
    return new Map(
      (csp ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...values]) => [name ?? '', values]),
    );
  }

  it('the app: a CSP without inline scripts that forbids framing, nosniff, no referrer', async () => {
    for (const path of ['/', '/settings', '/webpages/abc']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = directives(response.headers.get('content-security-policy'));
      const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
      expect(scripts).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'none'"]);
      expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('the API and static files: nosniff', async () => {
    for (const path of ['/public/api/v1/version', '/assets/app.js', '/public/api/v1/nope']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('the built app has no inline script the CSP would have to allow', () => {
    const built = join(REPO_ROOT, 'dist', 'index.html');
    if (!existsSync(built)) return; // built by `npm run e2e`; the browser tests run it under the CSP
    const html = readFileSync(built, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(content?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
