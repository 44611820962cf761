// Access by every spelling of every path (docs/security.md, "Access"). The table is generated from
// the contract: for each operation, every way a client or an attacker can spell its path (each
// character percent-encoded in turn, upper case, `//`, `/./`, `x/../`, a trailing `/`, `;x`,
// `%20`, `%00`, a backslash, the absolute form with the real and a foreign host), sent raw on a
// socket without a token, with a wrong token and with a revoked token. None may answer data or
// change the archive. Then a property test mixes the spellings at random, with and without the
// right token: never a 500, never data without a token.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { bodyOf } from '../../test/support/http-body.ts';
import { allowedHostsFor, ConfigError } from '../src/config.ts';
import type { OperationId } from '../src/http/operations.ts';
import { hostNameOf, requestTargetProblem } from '../src/http/request-target.ts';
import { loadSpec } from '../src/spec.ts';
import { openStore } from '../src/store/store.ts';
import { ok, upload } from './support/api.ts';
import { storedState } from './support/snapshot.ts';
import { spawnServer } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const spec = loadSpec();
const operations = [...spec.operations.values()];
const SECRET = 'Marmalade-7f3a';
const SPA_PAGE = '<!doctype html><html><head><title>app</title></head><body>app</body></html>';

let server: TestServer;
let staticDir: string;
let revokedToken: string;
let params: Record<string, string>;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** A body each write operation would accept: sent with a bad token, it must change nothing. */
const BODIES: Partial<Record<OperationId, unknown>> = {
  uploadWebpage: {
    content: Buffer.from(makeHtml({ title: `${SECRET} upload` })).toString('base64'),
    ext: 'html',
  },
  patchWebpage: { title: 'changed', liked: true },
  createHighlight: { text: 'alpha', textBefore: '', textAfter: '' },
  patchHighlight: { note: 'changed' },
  createView: { title: 'changed' },
  previewView: { title: 'changed' },
  patchView: { title: 'changed' },
  exportArchive: {},
  createExportLink: {},
  addToSave: { links: [{ url: `https://example.com/${SECRET}` }] },
};

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'folio-targets-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), SPA_PAGE);
  server = await startTestServer({ staticDir });
  const page = await upload(server, makeHtml({ title: `${SECRET} page`, body: SECRET }), 'html');
  const view = await ok(server, 'createView', { body: { title: `${SECRET} view` } });
  const highlight = await ok(server, 'createHighlight', {
    params: { id: page.id },
    body: { text: 'alpha', textBefore: '', textAfter: '', note: SECRET },
  });
  params = { id: page.id, view_id: view.id, highlight_id: highlight, link_id: '1' };
  // A token of the CLI, revoked: refused like a wrong one.
  const store = await openStore(server.dataDir);
  try {
    const made = store.tokens.create('revoked', Date.now());
    store.tokens.revoke(made.info.id, Date.now());
    revokedToken = made.token;
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  type: string;
  body: string;
}

/** Sends the request target exactly as given (no client-side normalisation). */
function raw(
  target: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: new URL(server.url).port,
        path: target,
        method,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        bodyOf(response).then(
          (body) =>
            resolve({
              status: response.statusCode ?? 0,
              type: String(response.headers['content-type'] ?? ''),
              body: body.toString('utf8'),
            }),
          reject,
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function concretePath(path: string): string {
  return spec.basePath + path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? 'x');
}

function percentEncode(char: string, lower: boolean): string {
  const hex = [...Buffer.from(char, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('');
  return lower ? hex : hex.toUpperCase();
}

/** Every spelling of a path that a router, a proxy or a client might read as that path. */
function spellings(path: string, origin: string): string[] {
  const out = new Set<string>([path]);
  for (let i = 0; i < path.length; i++) {
    const char = path.charAt(i);
    for (const lower of [false, true]) {
      out.add(path.slice(0, i) + percentEncode(char, lower) + path.slice(i + 1));
    }
  }
  out.add(path.toUpperCase());
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const before = segments.slice(0, i).join('/');
    const after = segments.slice(i).join('/');
    out.add(`${before}//${after}`);
    out.add(`${before}/./${after}`);
    out.add(`${before}/x/../${after}`);
    out.add(`${before}/%2e/${after}`);
    out.add(`${before}\\${after}`);
    out.add(segments.map((segment, j) => (j === i ? segment.toUpperCase() : segment)).join('/'));
  }
  for (const suffix of ['/', ';x', '%20', '%00', '%2f', '/.', '?', '#x']) out.add(path + suffix);
  out.add(`${origin}${path}`);
  out.add(`http://folio.example${path}`);
  out.add(`HTTP://127.0.0.1${path}`);
  out.add(`//127.0.0.1${path}`);
  return [...out];
}

/** No data: an error, or the app's own page for a path the API does not own. */
function expectNoData(answer: RawAnswer, what: string): void {
  expect(answer.body, what).not.toContain(SECRET);
  expect(answer.body, what).not.toContain('"success":true');
  if (answer.status >= 200 && answer.status < 300) {
    expect(answer.type, what).toMatch(/^text\/html/);
    expect(answer.body, what).toBe(SPA_PAGE);
  } else {
    expect([400, 401, 404, 421], what).toContain(answer.status);
  }
}

describe('every spelling of every operation, without an accepted token', () => {
  const credentials = [
    ['no token', () => ({})],
    ['a wrong token', () => ({ authorization: `Bearer ${server.token}x` })],
    ['a revoked token', () => ({ authorization: `Bearer ${revokedToken}` })],
  ] as const;

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    '%s: no answer carries data, and the archive is unchanged',
    async (_id, operation) => {
      const before = storedState(server.dataDir);
      const path = concretePath(operation.path);
      const targets = spellings(path, server.url);
      expect(targets.length).toBeGreaterThan(path.length);
      let refused = 0;
      for (const [name, headers] of credentials) {
        for (const target of targets) {
          const answer = await raw(
            target,
            operation.method,
            headers(),
            BODIES[operation.operationId as OperationId],
          );
          expectNoData(answer, `${operation.method} ${target} with ${name}`);
          if (answer.status === 401) refused++;
        }
      }
      // The spellings the router reads as the operation reach its token check.
      expect(refused).toBeGreaterThan(targets.length);
      expect(storedState(server.dataDir)).toEqual(before);
    },
  );

  it('every write operation has a body the table sends (the contract grew: add one)', () => {
    const writes = operations.filter((operation) => operation.requestBody !== undefined);
    expect(writes.map((operation) => operation.operationId).sort()).toEqual(
      Object.keys(BODIES).sort(),
    );
  });

  it('the same table with the token: the plain spelling works, the others are refused or the same', async () => {
    const answers = new Map<string, number>();
    for (const operation of operations.filter((op) => op.method === 'GET')) {
      for (const target of spellings(concretePath(operation.path), server.url)) {
        const answer = await raw(target, 'GET', { authorization: `Bearer ${server.token}` });
        expect(answer.status, target).not.toBe(500);
        answers.set(`${operation.operationId} ${answer.status}`, 1);
      }
    }
    expect([...answers.keys()]).toEqual(
      expect.arrayContaining(['getWebpage 200', 'getWebpage 400', 'listViews 200']),
    );
  });
});

describe('random spellings (property)', () => {
  type Step =
    | { kind: 'encode'; at: number; lower: boolean }
    | { kind: 'upper'; at: number }
    | { kind: 'insert'; at: number; text: string };
  const mutate: fc.Arbitrary<Step[]> = fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('encode' as const), at: fc.nat(), lower: fc.boolean() }),
      fc.record({ kind: fc.constant('upper' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        text: fc.constantFrom(
          '/',
          './',
          '../',
          'x/../',
          '%2e/',
          '%2F',
          ';',
          '%00',
          '%20',
          '\\',
          '%5c',
        ),
      }),
    ),
    { maxLength: 4 },
  );

  function apply(path: string, steps: Step[]): string {
    let out = path;
    for (const step of steps) {
      const at = 1 + (step.at % Math.max(1, out.length - 1));
      if (step.kind === 'encode') {
        const char = out.charAt(at);
        if (char === '%') continue;
        out = out.slice(0, at) + percentEncode(char, step.lower) + out.slice(at + 1);
      } else if (step.kind === 'upper') {
        out = out.slice(0, at) + out.charAt(at).toUpperCase() + out.slice(at + 1);
      } else {
        out = out.slice(0, at) + step.text + out.slice(at);
      }
    }
    return out;
  }

  it('without a token: no data, ever; with it: never a 500', async () => {
    const before = storedState(server.dataDir);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        mutate,
        fc.boolean(),
        async (operation, steps, withToken) => {
          const target = apply(concretePath(operation.path), steps);
          const headers: Record<string, string> = withToken
            ? { authorization: `Bearer ${server.token}` }
            : {};
          // With the token only reads: the archive must stay as it was.
          const method = withToken ? 'GET' : operation.method;
          const answer = await raw(
            target,
            method,
            headers,
            withToken ? undefined : BODIES[operation.operationId as OperationId],
          );
          expect(answer.status, target).not.toBe(500);
          if (!withToken) expectNoData(answer, `${method} ${target}`);
        },
      ),
      { numRuns: 600 },
    );
    expect(storedState(server.dataDir)).toEqual(before);
  });

  it('the target check: one reading, or a reason', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const target = `/${encodeURI(text).replaceAll('%25', '%')}`;
        const problem = requestTargetProblem(target);
        if (problem === undefined) {
          // Accepted: every segment decodes to text without a separator, a dot segment or a
          // control character.
          const segments = target.split('?')[0]?.slice(1).split('/') ?? [];
          for (const segment of segments) {
            const decoded = decodeURIComponent(segment);
            expect(['.', '..']).not.toContain(decoded);
            expect(decoded).not.toContain('/');
            expect(decoded).not.toContain('\\');
            expect([...decoded].every((char) => char >= ' ' && char !== '\u007f')).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the Host header (DNS rebinding)', () => {
  it('a loopback server answers loopback names only', async () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST:5178', `127.0.0.1:1`]) {
      const answer = await raw('/public/api/v1/version', 'GET', {
        host,
        authorization: `Bearer ${server.token}`,
      });
      expect(answer.status, host).toBe(200);
    }
    for (const host of [
      'folio.example',
      'folio.example:5178',
      'localhost.folio.example',
      '127.0.0.1.nip.io',
      'user@localhost',
    ]) {
      for (const target of ['/public/api/v1/version', '/', '/assets/x.js']) {
        const answer = await raw(target, 'GET', { host, authorization: `Bearer ${server.token}` });
        expect(answer.status, `${host} ${target}`).toBe(421);
        expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: 'misdirected' });
      }
    }
  });

  it('FOLIO_ALLOWED_HOSTS adds names; a server on other interfaces accepts any unless it is set', () => {
    expect([...(allowedHostsFor('127.0.0.1', undefined) ?? [])].sort()).toEqual(
      ['127.0.0.1', '[::1]', 'localhost'].sort(),
    );
    expect(allowedHostsFor('127.0.0.1', ' folio.example , Archive.Example:8443')).toEqual(
      new Set(['localhost', '127.0.0.1', '[::1]', 'folio.example', 'archive.example']),
    );
    expect(allowedHostsFor('::1', undefined)).toContain('[::1]');
    expect(allowedHostsFor('127.0.0.2', undefined)).toContain('127.0.0.2');
    expect(allowedHostsFor('0.0.0.0', undefined)).toBeUndefined();
    expect(allowedHostsFor('0.0.0.0', 'folio.example')).toContain('folio.example');
    expect(() => allowedHostsFor('127.0.0.1', 'http://folio.example/')).toThrow(ConfigError);
    expect(hostNameOf('a b')).toBeUndefined();
  });

  it('the real process: a foreign Host is refused, FOLIO_ALLOWED_HOSTS lets one in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-hosts-'));
    const proc = await spawnServer({ dataDir, env: { FOLIO_ALLOWED_HOSTS: 'folio.example' } });
    try {
      const ask = (host: string) =>
        new Promise<number>((resolve, reject) => {
          request(
            {
              host: '127.0.0.1',
              port: proc.port,
              path: '/public/api/v1/version',
              headers: { host, authorization: `Bearer ${proc.token}` },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          )
            .on('error', reject)
            .end();
        });
      expect(await ask('rebound.example')).toBe(421);
      expect(await ask('folio.example')).toBe(200);
      expect(await ask(`localhost:${proc.port}`)).toBe(200);
    } finally {
      await proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
