import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { matchToken } from '../src/auth.ts';
import { REPO_ROOT } from '../src/config.ts';
import { runScript, spawnServer, type SpawnedServer } from './support/spawned-server.ts';

const CLI = 'server/src/token-cli.ts';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const dirs: string[] = [];
const servers: SpawnedServer[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-tokens-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tokenCli(dataDir: string, ...args: string[]) {
  return runScript(CLI, args, { FOLIO_DATA_DIR: dataDir });
}

async function createToken(dataDir: string, name?: string): Promise<string> {
  const result = await tokenCli(dataDir, 'create', ...(name === undefined ? [] : ['--name', name]));
  expect(result.code, result.stderr).toBe(0);
  const token = result.stdout.trim();
  expect(token).toMatch(TOKEN_SHAPE);
  return token;
}

async function versionStatus(server: SpawnedServer, token: string): Promise<number> {
  const response = await fetch(`${server.url}/public/api/v1/version`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { message?: string };
  if (response.status === 401) expect(body.message).toBe('Invalid token');
  return response.status;
}

interface ListedToken {
  id: string;
  name: string;
  created: string;
  lastUsed: string;
  revoked: string;
}

async function listTokens(dataDir: string): Promise<{ rows: ListedToken[]; text: string }> {
  const result = await tokenCli(dataDir, 'list');
  expect(result.code, result.stderr).toBe(0);
  const [header, ...lines] = result.stdout.trimEnd().split('\n');
  expect(header?.split(/\s{2,}/)).toEqual(['id', 'name', 'created', 'last used', 'revoked']);
  const rows = lines.map((line) => {
    const [id = '', name = '', created = '', lastUsed = '', revoked = ''] = line.split(/\s{2,}/);
    return { id, name, created, lastUsed, revoked };
  });
  return { rows, text: result.stdout + result.stderr };
}

describe('matchToken', () => {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const candidates = ['a', 'b', 'c', 'd'].map(digest);

  it('finds the matching candidate, or -1', () => {
    expect(matchToken(digest('c'), candidates)).toBe(2);
    expect(matchToken(digest('a'), candidates)).toBe(0);
    expect(matchToken(digest('x'), candidates)).toBe(-1);
    expect(matchToken(digest('x'), [])).toBe(-1);
  });

  it('compares every candidate, whichever matches (no early exit)', () => {
    for (const presented of ['a', 'd', 'x']) {
      let comparisons = 0;
      const counting = (left: Buffer, right: Buffer) => {
        comparisons++;
        return left.equals(right);
      };
      matchToken(digest(presented), candidates, counting);
      expect(comparisons, presented).toBe(candidates.length);
    }
  });
});

describe('npm run token', () => {
  it('creates a token, prints it once, lists it without it, and keeps only its sha256', async () => {
    const dataDir = tempDir();
    const token = await createToken(dataDir, 'laptop');
    const second = await createToken(dataDir);
    expect(second).not.toBe(token);

    const { rows, text } = await listTokens(dataDir);
    expect(rows).toMatchObject([
      { id: '1', name: 'laptop', lastUsed: 'never', revoked: '-' },
      { id: '2', name: '-', lastUsed: 'never', revoked: '-' },
    ]);
    expect(rows[0]?.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    expect(text).not.toContain(token);
    expect(text).not.toContain(second);

    // The database holds the hash, never the token (not in the rows, not in the files).
    const db = new BetterSqlite3(join(dataDir, 'folio.db'), { readonly: true });
    const stored = db.prepare('SELECT * FROM api_tokens ORDER BY id').all() as Record<
      string,
      unknown
    >[];
    db.close();
    expect(stored.map((row) => (row.hash as Buffer).toString('hex'))).toEqual(
      [token, second].map((value) => createHash('sha256').update(value).digest('hex')),
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    for (const file of readdirSync(dataDir)) {
      expect(readFileSync(join(dataDir, file)).includes(token), file).toBe(false);
    }
  });

  it('revokes by id, and says so when the id is unknown or already revoked', async () => {
    const dataDir = tempDir();
    await createToken(dataDir, 'one');
    const revoked = await tokenCli(dataDir, 'revoke', '1');
    expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked token 1.\n' });
    const again = await tokenCli(dataDir, 'revoke', '1');
    expect(again).toMatchObject({ code: 0, stdout: 'Token 1 was already revoked.\n' });
    const unknown = await tokenCli(dataDir, 'revoke', '7');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no token 7/);
    const { rows } = await listTokens(dataDir);
    expect(rows[0]?.revoked).toMatch(/^\d{4}-\d\d-\d\d /);
  });

  it('refuses bad usage with exit code 2 and the usage', async () => {
    const dataDir = tempDir();
    const cases: string[][] = [
      [],
      ['make'],
      ['revoke'],
      ['revoke', 'abc'],
      ['revoke', '1', '2'],
      ['create', '--name'],
      ['create', '--colour', 'red'],
      ['create', '--name', 'bell\u0007'],
      ['create', '--name', 'x'.repeat(201)],
      ['list', 'all'],
    ];
    for (const args of cases) {
      const result = await tokenCli(dataDir, ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout + result.stderr).toMatch(/Usage: npm run token/);
    }
    const list = await tokenCli(dataDir, 'list');
    expect(list.stdout).toMatch(/^No tokens yet/);
  });

  it('is wired as the npm script', async () => {
    const dataDir = tempDir();
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        'npm',
        ['run', '--silent', 'token', '--', 'create', '--name', 'from npm'],
        { cwd: REPO_ROOT, env: { ...process.env, FOLIO_DATA_DIR: dataDir }, timeout: 60_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    expect(stdout.trim()).toMatch(TOKEN_SHAPE);
    const { rows } = await listTokens(dataDir);
    expect(rows.map((row) => row.name)).toEqual(['from npm']);
  });
});

describe('tokens against the running server', () => {
  it('accepts created tokens at once, refuses revoked ones at once, keeps the default', async () => {
    const dataDir = tempDir();
    // No FOLIO_TOKEN: the default token is generated into <data>/token.
    const server = await spawnServer({ dataDir });
    servers.push(server);
    expect(readFileSync(join(dataDir, 'token'), 'utf8').trim()).toBe(server.token);
    expect(await versionStatus(server, server.token)).toBe(200);

    const laptop = await createToken(dataDir, 'laptop');
    const phone = await createToken(dataDir, 'phone');
    expect(await versionStatus(server, laptop)).toBe(200);
    expect(await versionStatus(server, phone)).toBe(200);
    expect(await versionStatus(server, `${laptop.slice(0, -1)}x`)).toBe(401);

    const before = await listTokens(dataDir);
    expect(before.rows.map((row) => row.lastUsed)).not.toContain('never');

    expect((await tokenCli(dataDir, 'revoke', '1')).code).toBe(0);
    expect(await versionStatus(server, laptop)).toBe(401);
    expect(await versionStatus(server, phone)).toBe(200);
    expect(await versionStatus(server, server.token)).toBe(200);

    // Every API request is refused with the revoked token, writes included.
    const upload = await fetch(`${server.url}/public/api/v1/views`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptop}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'not with a revoked token' }),
    });
    expect(upload.status).toBe(401);
    const views = await fetch(`${server.url}/public/api/v1/views`, {
      headers: { authorization: `Bearer ${phone}` },
    });
    expect(await views.json()).toEqual({ success: true, data: [] });

    const after = await listTokens(dataDir);
    expect(after.rows[0]).toMatchObject({ id: '1', name: 'laptop' });
    expect(after.rows[0]?.revoked).not.toBe('-');
    expect(after.rows[1]?.revoked).toBe('-');
  });

  it('keeps FOLIO_TOKEN working beside the tokens of the CLI', async () => {
    const dataDir = tempDir();
    const server = await spawnServer({ dataDir, token: 'from-the-environment' });
    servers.push(server);
    const made = await createToken(dataDir);
    expect(await versionStatus(server, 'from-the-environment')).toBe(200);
    expect(await versionStatus(server, made)).toBe(200);
    expect(await versionStatus(server, 'from-the-environment ')).toBe(200);
    expect(await versionStatus(server, 'from-the-environmenT')).toBe(401);
  });
});

describe('the log', () => {
  it('never contains a token, even at the most verbose level', async () => {
    const dataDir = tempDir();
    const made = await createToken(dataDir);
    const server = await spawnServer({
      dataDir,
      token: 'default-token-in-the-env',
      env: { FOLIO_LOG: 'trace' },
    });
    servers.push(server);
    const wrong = 'wrong-token-presented-by-someone';
    const api = `${server.url}/public/api/v1`;
    const requests: [string, RequestInit][] = [
      [`${api}/version`, { headers: { authorization: `Bearer ${server.token}` } }],
      [`${api}/webpages?page=0`, { headers: { authorization: `Bearer ${made}` } }],
      [`${api}/webpages/nope`, { headers: { authorization: `Bearer ${made}` } }],
      [`${api}/version`, { headers: { authorization: `Bearer ${wrong}` } }],
      [`${api}/webpages/%ZZ`, { headers: { authorization: `Bearer ${wrong}` } }],
      // A token in the address (some clients do that): redacted like the header.
      [`${api}/webpages?token=${made}&page=1`, {}],
      [`${api}/version?access_token=${encodeURIComponent(wrong)}`, {}],
      [`${api}/nope?api%5Fkey=${made}`, {}],
      [
        `${api}/views`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${made}`, 'content-type': 'application/json' },
          body: '{"title": ',
        },
      ],
    ];
    for (const [url, init] of requests) await (await fetch(url, init)).text();
    // A request Node cannot parse: its error carries the raw bytes, Authorization included.
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `GET /public/api/v1/version HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${made}\r\n` +
            'Content-Length: not-a-number\r\n\r\n',
        );
      });
      socket.on('data', () => {});
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    await server.kill('SIGTERM');

    const lines = server.output().split('\n');
    // The log did record the requests…
    expect(lines.filter((line) => line.includes('"reqId"')).length).toBeGreaterThan(6);
    // …with the query's declared parameters, and the others' names but not their values.
    expect(server.output()).toContain('/webpages?token=[Redacted]&page=1');
    // …and only the address line (printed once, for the user to open) carries the default token.
    const withDefault = lines.filter((line) => line.includes(server.token));
    expect(withDefault).toHaveLength(1);
    expect(withDefault[0]).toMatch(/^Folio is running at http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(server.output()).not.toContain(made);
    expect(server.output()).not.toContain(wrong);
  });
});
