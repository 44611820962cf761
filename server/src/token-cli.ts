// `npm run token -- create [--name <name>] | list | revoke <id>`: the API tokens of the archive in
// FOLIO_DATA_DIR. Only the sha256 of a token is stored, so `create` is the one chance to copy it.
// It works on the database directly, so it is safe while the server runs (WAL): the server reads
// the tokens on every request, and a revoked token is refused from the next request on.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareDataDir } from './config.ts';
import { closeDatabase, openDatabase } from './store/database.ts';
import { MAX_TOKEN_NAME_LENGTH, TokenStore, type TokenInfo } from './store/tokens.ts';

const USAGE = `Usage: npm run token -- <command>

  create [--name <name>]  make a new token and print it (it is shown only once)
  list                    list the tokens: id, name, created, last used, revoked (never the token)
  revoke <id>             revoke a token: requests that use it are refused from then on

The archive is the one in FOLIO_DATA_DIR (./data by default). The default token (FOLIO_TOKEN, or
the generated <data>/token) is not in this list and keeps working.`;

class UsageError extends Error {
  override name = 'UsageError';
}

interface Output {
  out(line: string): void;
  err(line: string): void;
}

function run(args: readonly string[], io: Output): number {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'create' && command !== 'list' && command !== 'revoke') {
    throw new UsageError(`unknown command "${command}"`);
  }
  const parsed = command === 'create' ? { name: parseName(rest) } : undefined;
  const id = command === 'revoke' ? parseId(rest) : undefined;
  if (command === 'list' && rest.length > 0) throw new UsageError('list takes no arguments');

  const dataDir = prepareDataDir();
  const db = openDatabase(join(dataDir, 'folio.db'));
  try {
    const tokens = new TokenStore(db);
    const now = Date.now();
    if (parsed !== undefined) {
      const { token, info } = tokens.create(parsed.name, now);
      io.err(
        `Created token ${info.id}${info.name === '' ? '' : ` (${info.name})`} for ${dataDir}. ` +
          'Copy it now: it is not shown again.',
      );
      io.out(token);
      return 0;
    }
    if (id !== undefined) {
      const result = tokens.revoke(id, now);
      if (result === 'not-found') {
        io.err(`There is no token ${id} (see: npm run token -- list).`);
        return 1;
      }
      io.out(result === 'revoked' ? `Revoked token ${id}.` : `Token ${id} was already revoked.`);
      return 0;
    }
    printList(tokens.list(), io);
    return 0;
  } finally {
    closeDatabase(db);
  }
}

/** Runs `parse`; a refusal of node:util's `parseArgs` (unknown option, missing value) is a usage error. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function parseName(args: readonly string[]): string {
  const { values } = parsed(() =>
    parseArgs({
      args: [...args],
      options: { name: { type: 'string', default: '' } },
      strict: true,
      allowPositionals: false,
    }),
  );
  const name = values.name.trim();
  // The name is printed by `list`: no terminal control sequences.
  if (/\p{Cc}/u.test(name)) throw new UsageError('a token name cannot contain control characters');
  if (name.length > MAX_TOKEN_NAME_LENGTH) {
    throw new UsageError(`a token name is at most ${MAX_TOKEN_NAME_LENGTH} characters`);
  }
  return name;
}

function parseId(args: readonly string[]): number {
  const { positionals } = parsed(() =>
    parseArgs({ args: [...args], options: {}, strict: true, allowPositionals: true }),
  );
  const [text, ...extra] = positionals;
  if (text === undefined) throw new UsageError('revoke needs the id of a token');
  if (extra.length > 0) throw new UsageError('revoke takes one id');
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new UsageError(`"${text}" is not a token id`);
  return Number(text);
}

function printList(tokens: readonly TokenInfo[], io: Output): void {
  if (tokens.length === 0) {
    io.out('No tokens yet (only the default one). Make one with: npm run token -- create');
    return;
  }
  const rows = [
    ['id', 'name', 'created', 'last used', 'revoked'],
    ...tokens.map((token) => [
      String(token.id),
      token.name === '' ? '-' : token.name,
      formatTime(token.createdAt),
      token.lastUsedAt === null ? 'never' : formatTime(token.lastUsedAt),
      token.revokedAt === null ? '-' : formatTime(token.revokedAt),
    ]),
  ];
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of rows) {
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}

function formatTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z');
}

try {
  process.exitCode = run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`The token command failed: ${message}\n`);
    process.exitCode = 1;
  }
}
