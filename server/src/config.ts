import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostNameOf, LOOPBACK_HOST_NAMES } from './http/request-target.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  token: string;
  /** Largest decoded file an upload may carry, in bytes. */
  maxUploadBytes: number;
  /** The time limit of an upload's parse, in ms (`FOLIO_PARSE_TIMEOUT_S`, 30 s by default). */
  parseTimeoutMs: number;
  staticDir: string;
  /** Test switch: PATCH /views ignores `filters`, like the real HamsterBase. */
  ignoreViewFilterPatch: boolean;
  /** Test switch (`FOLIO_DISABLE_SEARCH=1`): search answers 404, like a server without it. */
  disableSearch: boolean;
  /**
   * Test switch (`FOLIO_AS_HAMSTERBASE=1`): where Folio extends HamsterBase 0.9.2, answer as it
   * does (no `/facets`, no `POST /views/preview`, `/version` without Folio's name, a link that
   * cannot be removed).
   */
  asHamsterBase: boolean;
  logLevel: LogLevel;
  /**
   * Host names the Host header of a request must name (lower case, no port), or undefined to
   * accept any: see `allowedHostsFor`.
   */
  allowedHosts: ReadonlySet<string> | undefined;
}

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration from the environment; creates the data folder and the token file. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = prepareDataDir(env);
  const host = nonEmpty(env.HOST) ?? '127.0.0.1';
  return {
    host,
    port: parsePort(env.PORT),
    dataDir,
    token: nonEmpty(env.FOLIO_TOKEN) ?? readOrCreateToken(dataDir),
    maxUploadBytes: parseMaxUpload(env.FOLIO_MAX_UPLOAD_MB),
    parseTimeoutMs: parseParseTimeout(env.FOLIO_PARSE_TIMEOUT_S),
    staticDir: resolve(nonEmpty(env.FOLIO_STATIC_DIR) ?? join(REPO_ROOT, 'dist')),
    ignoreViewFilterPatch: env.FOLIO_IGNORE_VIEW_FILTER_PATCH === '1',
    disableSearch: env.FOLIO_DISABLE_SEARCH === '1',
    asHamsterBase: env.FOLIO_AS_HAMSTERBASE === '1',
    logLevel: parseLogLevel(env.FOLIO_LOG),
    allowedHosts: allowedHostsFor(host, env.FOLIO_ALLOWED_HOSTS),
  };
}

/**
 * Which Host headers the server answers (DNS rebinding: a site whose name now resolves to
 * 127.0.0.1 must not reach a loopback archive through the visitor's browser). Listening on a
 * loopback address: the loopback names, the address itself and `FOLIO_ALLOWED_HOSTS`
 * (comma-separated names, for a reverse proxy). Listening elsewhere: any host, unless
 * `FOLIO_ALLOWED_HOSTS` is set, which then restricts it the same way.
 */
export function allowedHostsFor(
  host: string,
  extra: string | undefined,
): ReadonlySet<string> | undefined {
  const names = (extra ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => {
      const hostName = hostNameOf(name);
      if (hostName === undefined) {
        throw new ConfigError(
          `FOLIO_ALLOWED_HOSTS must be comma-separated host names (no scheme or path), got "${name}"`,
        );
      }
      return hostName;
    });
  if (!isLoopbackHost(host) && names.length === 0) return undefined;
  const own = hostNameOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return new Set([...LOOPBACK_HOST_NAMES, ...(own === undefined ? [] : [own]), ...names]);
}

/** The absolute data folder (`FOLIO_DATA_DIR`, `./data` by default), created private if missing. */
export function prepareDataDir(env: Env = process.env): string {
  const dataDir = resolve(nonEmpty(env.FOLIO_DATA_DIR) ?? './data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return dataDir;
}

/**
 * The token kept in `<dataDir>/token` (mode 0600): generated on first start (32 random bytes,
 * base64url), reused afterwards.
 */
export function readOrCreateToken(dataDir: string): string {
  const file = join(dataDir, 'token');
  const existing = readTokenFile(file);
  if (existing !== undefined) return existing;
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return token;
  } catch (error) {
    // Another process created it between the read and the write: use theirs.
    const raced = isErrnoCode(error, 'EEXIST') ? readTokenFile(file) : undefined;
    if (raced !== undefined) return raced;
    throw error;
  }
}

/** Loopback addresses get no warning: anything else exposes the archive to the network. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * What `npm start` prints once listening: the address to open (with the token in the fragment,
 * which browsers never send), and a warning when the archive is reachable from other machines.
 * `startupLines` puts them in the order they are printed.
 */
export function startupMessages(
  host: string,
  port: number,
  token: string,
): { address: string; warning?: string } {
  const address = `Folio is running at http://${urlHost(host)}:${port}/#token=${encodeURIComponent(token)}`;
  if (isLoopbackHost(host)) return { address };
  return {
    address,
    warning:
      `Warning: HOST=${host} is not a loopback address: anyone who can reach this ` +
      'machine can reach the archive (the token is the only protection).',
  };
}

/**
 * The lines `npm start` ends with: the warning (if any), an empty line, and the address last, so
 * that it stands out below the build's and the log's lines.
 */
export function startupLines(host: string, port: number, token: string): string[] {
  const { address, warning } = startupMessages(host, port, token);
  return [...(warning === undefined ? [] : [warning]), '', address];
}

/** The host to put in the printed address (a browser cannot open 0.0.0.0 everywhere). */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function readTokenFile(file: string): string | undefined {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  const token = content.trim();
  if (token === '')
    throw new ConfigError(`the token file ${file} is empty; delete it to get a new one`);
  return token;
}

function parsePort(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return 5178;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${text}"`);
  }
  return port;
}

function parseMaxUpload(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return 200 * 1024 * 1024;
  const megabytes = Number(text);
  if (!Number.isFinite(megabytes) || megabytes <= 0) {
    throw new ConfigError(`FOLIO_MAX_UPLOAD_MB must be a positive number, got "${text}"`);
  }
  return Math.max(1, Math.floor(megabytes * 1024 * 1024));
}

/** Seconds, as ms: a page whose parse takes longer is answered E0001 (too complex to read). */
function parseParseTimeout(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return 30_000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigError(`FOLIO_PARSE_TIMEOUT_S must be a positive number, got "${text}"`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}

function parseLogLevel(value: string | undefined): LogLevel {
  const text = nonEmpty(value) ?? 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === text);
  if (level === undefined) {
    throw new ConfigError(`FOLIO_LOG must be one of ${LOG_LEVELS.join(', ')}, got "${text}"`);
  }
  return level;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
