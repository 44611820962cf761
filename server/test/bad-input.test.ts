// Bad requests to every endpoint, table-driven: each is answered with the right status and a clear
// message in the envelope (checked against the spec), never a 500 or a stack, and the archive is
// byte-for-byte the same afterwards (database rows, original files, and what the API lists).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../../test/support/archives.ts';
import type { OperationId } from '../src/http/operations.ts';
import { uploadBodyLimit } from '../src/upload/store-upload.ts';
import { call, ok, upload, type ApiResponse, type CallOptions, type Ext } from './support/api.ts';
import { ALL_OPERATIONS } from './support/operations.ts';
import { snapshot } from './support/snapshot.ts';
import { expectSpecResponse, expectSpecSchema } from './support/spec-checker.ts';
import { spawnServer, type SpawnedServer } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { toSaveCases } from './support/to-save-bad-cases.ts';

const API = '/public/api/v1';
const SMALL_LIMIT = 64 * 1024;

/** How a case is sent. `{token}` in a raw request stands for the server's token. */
type Send =
  | { call: CallOptions }
  | {
      fetch: { method: string; path: string; headers?: Record<string, string>; body?: string };
    }
  | { socket: string }
  | { declaredLength: number };

interface BadCase {
  name: string;
  /** The operation whose spec the answer must match; none for paths outside the spec. */
  op?: OperationId;
  send: Send;
  status: number;
  message: string | RegExp;
  /** The server that answers: the main one (default limits) or one with a 64 KiB upload limit. */
  server?: 'main' | 'small';
}

// ---- hostile files --------------------------------------------------------------------------

/** A binary plist from raw object encodings (what Safari's writer never produces). */
function rawBplist(
  objects: readonly number[][],
  options: { refSize?: number; objectCount?: bigint } = {},
): Buffer {
  const parts = [Buffer.from('bplist00', 'latin1')];
  const offsets: number[] = [];
  let position = 8;
  for (const object of objects) {
    offsets.push(position);
    parts.push(Buffer.from(object));
    position += object.length;
  }
  const offsetSize = position < 0x100 ? 1 : position < 0x10000 ? 2 : 4;
  const table = Buffer.alloc(offsets.length * offsetSize);
  offsets.forEach((offset, index) => table.writeUIntBE(offset, index * offsetSize, offsetSize));
  const trailer = Buffer.alloc(32);
  trailer[6] = offsetSize;
  trailer[7] = options.refSize ?? 1;
  trailer.writeBigUInt64BE(options.objectCount ?? BigInt(objects.length), 8);
  trailer.writeBigUInt64BE(0n, 16);
  trailer.writeBigUInt64BE(BigInt(position), 24);
  return Buffer.concat([...parts, table, trailer]);
}

/** An array that contains itself. */
const BPLIST_CYCLE = rawBplist([[0xa1, 0x00]]);
/** 600 arrays, each in the previous one. */
const BPLIST_DEEP = rawBplist(
  [
    ...Array.from({ length: 600 }, (_, index) => [0xa1, (index + 1) >> 8, (index + 1) & 0xff]),
    [0xa0],
  ],
  { refSize: 2 },
);
/** A trailer that claims 2^62 objects. */
const BPLIST_HUGE_COUNT = rawBplist([[0xa0]], { objectCount: 2n ** 62n });

const PROBE_HTML = makeHtml({ title: 'Bad input probe', body: '<p>never stored</p>' });
const PROBE = PROBE_HTML.toString('base64');
const MHTML = makeMhtml({
  html: '<html><head><title>Probe mhtml</title></head><body><p>x</p></body></html>',
  url: 'https://probe.example/m',
  boundary: '----MultipartBoundary--probe----',
});
const WEBARCHIVE = makeWebarchive({
  html: '<html><head><title>Probe webarchive</title></head><body><p>x</p></body></html>',
  url: 'https://probe.example/w',
});
/** The file of the page that is deleted before the cases run. */
const FILE_C = makeWebarchive({
  html: '<html><head><title>Gamma</title></head><body><p>gone</p></body></html>',
  url: 'https://gamma.example/',
});
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const long = (length: number, char = 'x') => char.repeat(length);

// ---- the archive before every case -----------------------------------------------------------

let server: TestServer;
let small: TestServer;
/** A live page with labels, a like and a highlight. */
let pageA: string;
let highlightA: string;
/** A deleted page: no bad request may bring it back. */
let pageC: string;
let viewV: string;
/** A deleted view. */
let viewW: string;

beforeAll(async () => {
  server = await startTestServer();
  small = await startTestServer({ maxUploadBytes: SMALL_LIMIT });
  server.clock.set(Date.UTC(2026, 4, 1));
  const a = await upload(server, makeHtml({ title: 'Alpha', body: '<p>alpha text</p>' }), 'html', {
    link: 'https://alpha.example/a',
  });
  pageA = a.id;
  await ok(server, 'patchWebpage', {
    params: { id: pageA },
    body: { liked: true, labels: ['keep', 'a'] },
  });
  highlightA = await ok(server, 'createHighlight', {
    params: { id: pageA },
    body: { text: 'alpha', textBefore: '', textAfter: ' text', note: 'a note' },
  });
  const beta = '<html><head><title>Beta</title></head><body><p>beta</p></body></html>';
  await upload(
    server,
    makeMhtml({ html: beta, url: 'https://beta.example/', boundary: 'b-e-t-a' }),
    'mhtml',
  );
  pageC = (await upload(server, FILE_C, 'webarchive')).id;
  await ok(server, 'deleteWebpage', { params: { id: pageC } });
  viewV = (
    await ok(server, 'createView', {
      body: { title: 'Liked', filters: [{ type: 0, key: 'liked', operator: true }] },
    })
  ).id;
  viewW = (await ok(server, 'createView', { body: { title: 'Deleted view' } })).id;
  await ok(server, 'deleteView', { params: { view_id: viewW } });
  await upload(small, makeHtml({ title: 'Small server page' }), 'html');
});

afterAll(async () => {
  await server?.close();
  await small?.close();
});

/** No temp file of the blob store is left (waiting up to 2 s for a refused upload's cleanup). */
async function expectNoTempFiles(target: TestServer): Promise<void> {
  const root = join(target.dataDir, 'blobs');
  const temps = () =>
    readdirSync(root).flatMap((folder) =>
      readdirSync(join(root, folder)).filter((name) => name.startsWith('.tmp-')),
    );
  // A refused upload's staging file goes once its request ends: wait for that state (the bound is
  // against a leak, not a speed check).
  await expect.poll(temps, { timeout: 30_000 }).toEqual([]);
}

// ---- sending ---------------------------------------------------------------------------------

async function send(target: TestServer, testCase: BadCase): Promise<ApiResponse> {
  const { send: how, op } = testCase;
  if ('call' in how) {
    if (op === undefined) throw new Error(`${testCase.name}: a call needs an operation`);
    return call(target, op, how.call);
  }
  if ('fetch' in how) {
    const headers = Object.fromEntries(
      Object.entries(how.fetch.headers ?? {}).map(([key, value]) => [
        key,
        value.replace('{token}', target.token),
      ]),
    );
    // Bytes, so that fetch adds no Content-Type of its own.
    const body =
      how.fetch.body === undefined ? undefined : new TextEncoder().encode(how.fetch.body);
    const response = await fetch(`${target.url}${how.fetch.path}`, {
      method: how.fetch.method,
      headers,
      body,
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const answer: unknown = JSON.parse(await response.text());
    if (op !== undefined && response.status !== 431) {
      expectSpecResponse(op, response.status, answer);
    } else {
      expectSpecSchema('ErrorBody', answer);
    }
    return { status: response.status, body: answer, headers: response.headers };
  }
  if ('socket' in how) return rawSocket(target, how.socket.replace('{token}', target.token));
  return declaredLength(target, how.declaredLength);
}

/** Bytes straight onto a connection (requests no HTTP client would send). */
function rawSocket(target: TestServer, bytes: string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(target.url).port), '127.0.0.1', () => {
      socket.write(bytes);
    });
    let text = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const headers = new Headers(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(/:\s*/, 2) as [string, string]),
      );
      try {
        const json: unknown = JSON.parse(body);
        expectSpecSchema('ErrorBody', json);
        resolve({ status, body: json, headers });
      } catch (error) {
        reject(new Error(`not a JSON error answer: ${text.slice(0, 300)}`, { cause: error }));
      }
    });
  });
}

/** An upload that announces `length` bytes and sends a few: refused before the body is read. */
function declaredLength(target: TestServer, length: number): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${target.url}${API}/webpages`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${target.token}`,
          'content-type': 'application/json',
          'content-length': String(length),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          const body: unknown = JSON.parse(text);
          expectSpecResponse('uploadWebpage', response.statusCode ?? 0, body);
          resolve({ status: response.statusCode ?? 0, body, headers: new Headers() });
          request.destroy();
        });
      },
    );
    request.on('error', reject);
    request.write(`{"ext":"html","content":"${PROBE}`);
  });
}

// ---- the cases -------------------------------------------------------------------------------

const withToken = (token: string): CallOptions => ({ token });
const json = (body: unknown): CallOptions => ({ body });
const raw = (rawBody: string, contentType?: string | null): CallOptions => ({
  rawBody,
  ...(contentType === undefined ? {} : { contentType }),
});

const NOT_JSON = 'the request body is not valid JSON';
const CONTENT_TYPE = 'Content-Type must be application/json';
const BODY_REQUIRED = /^body is required: send a JSON object/;
// HamsterBase's words (server/src/upload/hamsterbase-messages.ts).
const LINK_INVALID = /^link is invalid\. link should start link http:\/\/www\.example\.com\.$/;
const PARSE_ERROR = /^parse error: \S/;
const NO_WEBPAGE = 'webpage not found';
const MALFORMED = 'the address is malformed (invalid percent-encoding)';
// Refused by the request-target check before any route reads the path (docs/security.md).
const ENCODED_SLASH = 'the path has an encoded / or \\ inside a segment';
const DOT_SEGMENT = 'the path has a dot segment (. or ..)';
const CONTROL_CHARACTER = 'the path has a control character';

function uploadCases(): BadCase[] {
  const up = (name: string, body: unknown, status: number, message: string | RegExp): BadCase => ({
    name: `upload: ${name}`,
    op: 'uploadWebpage',
    send: { call: json(body) },
    status,
    message,
  });
  const e0001 = (name: string, content: string, ext: string) =>
    up(name, { content, ext }, 200, PARSE_ERROR);
  return [
    up('content of the wrong type', { content: 12, ext: 'html' }, 400, 'content or ext is invalid'),
    up('content missing', { ext: 'html' }, 400, 'content or ext is invalid'),
    up('ext missing', { content: PROBE }, 400, 'content or ext is invalid'),
    up('empty content', { content: '', ext: 'html' }, 400, 'content or ext is invalid'),
    up('unknown ext', { content: PROBE, ext: 'pdf' }, 400, 'content or ext is invalid'),
    up('ext in capitals', { content: PROBE, ext: 'HTML' }, 400, 'content or ext is invalid'),
    up('ext as an array', { content: PROBE, ext: ['html'] }, 400, 'content or ext is invalid'),
    up(
      'unknown field',
      { content: PROBE, ext: 'html', tags: ['x'] },
      400,
      'body/tags is not allowed',
    ),
    up(
      'title of the wrong type',
      { content: PROBE, ext: 'html', title: 3 },
      400,
      'body/title must be a string',
    ),
    up(
      'huge title',
      { content: PROBE, ext: 'html', title: long(2001) },
      400,
      'body/title must be at most 2000 characters long',
    ),
    up(
      'javascript: link',
      { content: PROBE, ext: 'html', link: 'javascript:alert(1)' },
      400,
      LINK_INVALID,
    ),
    up(
      'JaVaScRiPt: link with spaces',
      { content: PROBE, ext: 'html', link: ' JaVaScRiPt:alert(1)' },
      400,
      LINK_INVALID,
    ),
    up(
      'data: link',
      { content: PROBE, ext: 'html', link: 'data:text/html,<script>alert(1)</script>' },
      400,
      LINK_INVALID,
    ),
    up(
      'plain-text link',
      { content: PROBE, ext: 'html', link: 'just some words' },
      400,
      LINK_INVALID,
    ),
    up('empty link', { content: PROBE, ext: 'html', link: '' }, 400, LINK_INVALID),
    up(
      'file: link',
      { content: PROBE, ext: 'html', link: 'file:///etc/passwd' },
      400,
      LINK_INVALID,
    ),
    up('link without a host', { content: PROBE, ext: 'html', link: 'https://' }, 400, LINK_INVALID),
    up(
      'huge link',
      { content: PROBE, ext: 'html', link: `https://x.example/${long(8200)}` },
      400,
      'link is invalid. link should start link http://www.example.com.',
    ),
    up('body is an array', [PROBE, 'html'], 400, 'body must be an object'),
    up('body is a string', 'content', 400, 'body must be an object'),
    e0001('invalid base64', 'not base64!', 'html'),
    e0001('base64 with a line break', `${PROBE}\n`, 'html'),
    e0001('url-safe base64', `${PROBE.replaceAll('+', '-').replaceAll('/', '_')}-_`, 'html'),
    e0001('base64 with bits after the end', 'QR==', 'html'),
    e0001('base64 with padding inside', 'QQ==QQ==', 'html'),
    e0001('truncated mhtml', b64(MHTML.subarray(0, Math.floor(MHTML.length / 2))), 'mhtml'),
    e0001(
      'truncated webarchive',
      b64(WEBARCHIVE.subarray(0, WEBARCHIVE.length - 12)),
      'webarchive',
    ),
    e0001('mhtml cut inside its header', b64(MHTML.subarray(0, 150)), 'mhtml'),
    e0001('html declared as mhtml', PROBE, 'mhtml'),
    e0001('html declared as webarchive', PROBE, 'webarchive'),
    e0001('mhtml declared as webarchive', b64(MHTML), 'webarchive'),
    e0001('webarchive declared as mhtml', b64(WEBARCHIVE), 'mhtml'),
    e0001('webarchive declared as html', b64(WEBARCHIVE), 'html'),
    e0001('png declared as html', b64(makePng(3, 3)), 'html'),
    e0001('a single NUL byte', 'AA==', 'html'),
    e0001('plain text declared as html', b64(Buffer.from('no markup here, only words')), 'html'),
    e0001('bplist whose array contains itself', b64(BPLIST_CYCLE), 'webarchive'),
    e0001('bplist nested 600 deep', b64(BPLIST_DEEP), 'webarchive'),
    e0001('bplist claiming 2^62 objects', b64(BPLIST_HUGE_COUNT), 'webarchive'),
    {
      name: 'upload: JSON null',
      op: 'uploadWebpage',
      send: { call: raw('null') },
      status: 400,
      message: 'body must be an object',
    },
    {
      name: 'upload: invalid JSON',
      op: 'uploadWebpage',
      send: { call: raw('{"content": "AAAA", "ext": ') },
      status: 400,
      message: NOT_JSON,
    },
    {
      name: 'upload: __proto__ key',
      op: 'uploadWebpage',
      send: { call: raw(`{"content":"${PROBE}","ext":"html","__proto__":{"polluted":true}}`) },
      status: 400,
      message: /^(the request body is not valid JSON|body\/__proto__ is not allowed)$/,
    },
    {
      name: 'upload: constructor.prototype key',
      op: 'uploadWebpage',
      send: {
        call: raw(`{"content":"${PROBE}","ext":"html","constructor":{"prototype":{"x":1}}}`),
      },
      status: 400,
      message: /^(the request body is not valid JSON|body\/constructor is not allowed)$/,
    },
    {
      name: 'upload: duplicate JSON keys, the last one wrong',
      op: 'uploadWebpage',
      send: { call: raw(`{"content":"${PROBE}","ext":"html","ext":"exe"}`) },
      status: 400,
      message: 'content or ext is invalid',
    },
    {
      name: 'upload: text/plain body',
      op: 'uploadWebpage',
      send: { call: raw(JSON.stringify({ content: PROBE, ext: 'html' }), 'text/plain') },
      status: 400,
      message: CONTENT_TYPE,
    },
    {
      name: 'upload: form-encoded body',
      op: 'uploadWebpage',
      send: { call: raw(`content=${PROBE}&ext=html`, 'application/x-www-form-urlencoded') },
      status: 400,
      message: CONTENT_TYPE,
    },
    {
      name: 'upload: multipart body',
      op: 'uploadWebpage',
      send: {
        call: raw(
          '--b\r\nContent-Disposition: form-data; name="ext"\r\n\r\nhtml\r\n--b--\r\n',
          'multipart/form-data; boundary=b',
        ),
      },
      status: 400,
      message: CONTENT_TYPE,
    },
    {
      name: 'upload: no content type',
      op: 'uploadWebpage',
      send: {
        fetch: {
          method: 'POST',
          path: `${API}/webpages`,
          headers: { authorization: 'Bearer {token}' },
          body: JSON.stringify({ content: PROBE, ext: 'html' }),
        },
      },
      status: 400,
      message: CONTENT_TYPE,
    },
    {
      name: 'upload: JSON content type and no body',
      op: 'uploadWebpage',
      send: { call: { contentType: 'application/json' } },
      status: 400,
      message: BODY_REQUIRED,
    },
    {
      name: 'upload: no token',
      op: 'uploadWebpage',
      send: { call: { body: { content: PROBE, ext: 'html' }, token: null } },
      status: 401,
      message: 'No authorization header',
    },
    {
      name: 'upload: the bytes of a deleted page with a wrong token (no restore)',
      op: 'uploadWebpage',
      send: { call: { body: { content: b64(FILE_C), ext: 'webarchive' }, token: 'wrong' } },
      status: 401,
      message: 'Invalid token',
    },
    {
      name: `upload: announcing more than the default limit (${uploadBodyLimit(200 * 1024 * 1024)} bytes)`,
      send: { declaredLength: uploadBodyLimit(200 * 1024 * 1024) + 1 },
      status: 413,
      message: 'the request body is larger than the server accepts',
    },
    {
      name: 'upload: a body over FOLIO_MAX_UPLOAD_MB',
      op: 'uploadWebpage',
      server: 'small',
      send: { call: json({ content: b64(Buffer.alloc(SMALL_LIMIT * 4, 0x41)), ext: 'html' }) },
      status: 413,
      message: 'the request body is larger than the server accepts',
    },
    {
      name: 'upload: a file just over FOLIO_MAX_UPLOAD_MB',
      op: 'uploadWebpage',
      server: 'small',
      send: {
        call: json({
          content: b64(makeHtml({ title: 'big', body: `<p>${long(SMALL_LIMIT)}</p>` })),
          ext: 'html',
        }),
      },
      status: 413,
      message: 'the file is larger than the server accepts (0.06 MB)',
    },
  ];
}

function listCases(): BadCase[] {
  const list = (name: string, query: CallOptions['query'], message: string): BadCase => ({
    name: `list: ${name}`,
    op: 'listWebpages',
    send: { call: { query } },
    status: 400,
    message,
  });
  return [
    list('liked=yes', { liked: 'yes' }, 'query/liked must be one of true, false'),
    list('liked given twice', { liked: ['true', 'false'] }, 'query/liked must be a string'),
    list('read=1', { read: '1' }, 'query/read must be one of true, false'),
    list('annotated empty', { annotated: '' }, 'query/annotated must be one of true, false'),
    list('page=0', { page: 0 }, 'query/page must be >= 1'),
    list('page=-1', { page: -1 }, 'query/page must be >= 1'),
    list('page=abc', { page: 'abc' }, 'query/page must be an integer'),
    list('page=1.5', { page: '1.5' }, 'query/page must be an integer'),
    list('per_page=1001', { per_page: 1001 }, 'query/per_page must be <= 1000'),
    {
      name: 'listHighlights: per_page=201',
      op: 'listHighlights',
      send: { call: { query: { per_page: 201 } } },
      status: 400,
      message: 'query/per_page must be <= 200',
    },
    list('per_page empty', { per_page: '' }, 'query/per_page must be an integer'),
    list(
      'unknown sort',
      { sort: 'random' },
      'query/sort must be one of first_add_time_desc, first_add_time_asc, title_asc, title_desc, annotate_count_asc, annotate_count_desc',
    ),
    list('sort given twice', { sort: ['title_asc', 'title_desc'] }, 'query/sort must be a string'),
    list('unknown ext', { ext: 'pdf' }, 'query/ext/0 must be one of html, mhtml, webarchive'),
    list(
      'four exts',
      { ext: ['html', 'mhtml', 'webarchive', 'html'] },
      'query/ext must have at most 3 items',
    ),
    list('empty host', { host: '' }, 'query/host/0 must not be empty'),
    list(
      '101 labels',
      { labels: Array.from({ length: 101 }, (_, i) => `l${i}`) },
      'query/labels must have at most 100 items',
    ),
    list(
      'a 201-character label',
      { labels: long(201) },
      'query/labels/0 must be at most 200 characters long',
    ),
    list('unknown parameter', { colour: 'red' }, 'query/colour is not allowed'),
    list('__proto__ parameter', { ['__proto__']: '1' }, 'query/__proto__ is not allowed'),
    list('bracketed parameter', { 'page[]': '1' }, 'query/page[] is not allowed'),
    {
      name: 'list: wrong token',
      op: 'listWebpages',
      send: { call: withToken('not-the-token') },
      status: 401,
      message: 'Invalid token',
    },
    {
      name: 'list: Basic scheme',
      op: 'listWebpages',
      send: { call: { authorization: 'Basic dXNlcjpwYXNz' } },
      status: 401,
      message: 'Invalid token',
    },
  ];
}

function idCases(): BadCase[] {
  const cases: BadCase[] = [];
  const byId = (
    op: OperationId,
    what: string,
    id: string,
    message: string | RegExp,
    status = 404,
  ) =>
    cases.push({
      name: `${op}: ${what}`,
      op,
      send: {
        call: {
          params: { id, highlight_id: '{H}' },
          ...(op === 'patchWebpage' ? { body: { read: true } } : {}),
          ...(op === 'createHighlight'
            ? { body: { text: 'x', textBefore: '', textAfter: '' } }
            : {}),
          ...(op === 'patchHighlight' ? { body: { note: 'changed' } } : {}),
        },
      },
      status,
      message,
    });
  const ops: OperationId[] = [
    'getWebpage',
    'getWebpageContent',
    'patchWebpage',
    'deleteWebpage',
    'createHighlight',
    'patchHighlight',
    'deleteHighlight',
  ];
  for (const op of ops) {
    byId(op, 'unknown id', 'f'.repeat(64), NO_WEBPAGE);
    byId(op, 'deleted page', '{deleted}', NO_WEBPAGE);
  }
  byId('getWebpage', '../ id', '../../etc/passwd', ENCODED_SLASH, 400);
  byId('getWebpageContent', '../ id to the database', '../../folio.db', ENCODED_SLASH, 400);
  cases.push({
    // Sent raw: an HTTP client would resolve the dot segment before sending.
    name: 'deleteWebpage: .. id',
    op: 'deleteWebpage',
    send: {
      socket: `DELETE ${API}/webpages/.. HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n`,
    },
    status: 400,
    message: DOT_SEGMENT,
  });
  byId(
    'getWebpage',
    '201-character id',
    long(201, 'a'),
    'path/id must be at most 200 characters long',
  );
  byId(
    'patchWebpage',
    '201-character id',
    long(201, 'a'),
    'path/id must be at most 200 characters long',
  );
  // Longer than any route's parameter: no operation matches, the API's scope answers 404.
  const noEndpoint = /^no such API endpoint: (GET|DELETE) \/public\/api\/v1\/webpages\/a+…$/;
  byId('getWebpage', '5000-character id', long(5000, 'a'), noEndpoint);
  byId('deleteWebpage', '5000-character id', long(5000, 'a'), noEndpoint);
  byId('getWebpage', 'unicode id', '日本語🐹', NO_WEBPAGE);
  byId('getWebpage', 'id with a NUL', `${'a'.repeat(63)}\u0000`, CONTROL_CHARACTER, 400);
  byId('getWebpage', 'id in capitals', '{A-upper}', NO_WEBPAGE);
  byId('getWebpageContent', 'id with a newline', `{A}\n`, CONTROL_CHARACTER, 400);
  const malformed = (op: OperationId, method: string, path: string): BadCase => ({
    name: `${op}: malformed percent-encoding ${path}`,
    op,
    send: {
      fetch: { method, path: `${API}${path}`, headers: { authorization: 'Bearer {token}' } },
    },
    status: 404,
    message: MALFORMED,
  });
  cases.push(
    malformed('getWebpage', 'GET', '/webpages/%ZZ'),
    malformed('getWebpage', 'GET', '/webpages/%C0%AF'),
    malformed('deleteWebpage', 'DELETE', '/webpages/%E0%A4%A'),
    malformed('getView', 'GET', '/views/%ZZ'),
    {
      name: 'getWebpage: dot segments percent-encoded',
      op: 'getWebpage',
      send: {
        fetch: {
          method: 'GET',
          path: `${API}/webpages/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
          headers: { authorization: 'Bearer {token}' },
        },
      },
      status: 400,
      message: ENCODED_SLASH,
    },
    {
      // Refused while routing, before any route (and so any data) is reached.
      name: 'getWebpage: malformed path without a token',
      op: 'getWebpage',
      send: { fetch: { method: 'GET', path: `${API}/webpages/%ZZ` } },
      status: 404,
      message: MALFORMED,
    },
  );
  return cases;
}

function patchCases(): BadCase[] {
  const patch = (name: string, body: unknown, message: string | RegExp): BadCase => ({
    name: `patch: ${name}`,
    op: 'patchWebpage',
    send: { call: { params: { id: '{A}' }, body } },
    status: 400,
    message,
  });
  return [
    patch('empty object', {}, 'body must have at least one field'),
    patch('liked as a string', { liked: 'true' }, 'body/liked must be a boolean'),
    patch('read as a number', { read: 1 }, 'body/read must be a boolean'),
    patch('title null', { title: null }, 'body/title must be a string'),
    patch('huge title', { title: long(2001) }, 'body/title must be at most 2000 characters long'),
    patch(
      'huge excerpt',
      { excerpt: long(20_001) },
      'body/excerpt must be at most 20000 characters long',
    ),
    patch('labels as a string', { labels: 'a' }, 'body/labels must be an array'),
    patch('a number label', { labels: ['ok', 1] }, 'body/labels/1 must be a string'),
    patch('an empty label', { title: 'x', labels: [''] }, 'body/labels/0 must not be empty'),
    patch(
      'a blank label',
      { title: 'x', labels: ['ok', ' \t '] },
      'body/labels/1 must not be blank',
    ),
    patch(
      '501 labels',
      { labels: Array.from({ length: 501 }, (_, i) => `l${i}`) },
      'body/labels must have at most 500 items',
    ),
    patch(
      'a 201-character label',
      { labels: [long(201)] },
      'body/labels/0 must be at most 200 characters long',
    ),
    patch(
      'javascript: link, with a title',
      { title: 'changed', link: 'javascript:alert(1)' },
      LINK_INVALID,
    ),
    patch('data: link', { liked: false, link: 'data:text/html;base64,PHNjcmlwdD4=' }, LINK_INVALID),
    patch('plain-text link', { link: 'example.com/page' }, LINK_INVALID),
    patch('vbscript: link', { link: 'vbscript:msgbox(1)' }, LINK_INVALID),
    patch('link as a number', { link: 5 }, 'body/link must be a string or null'),
    patch('unknown field', { deleted: false }, 'body/deleted is not allowed'),
    patch('id field', { id: 'f'.repeat(64) }, 'body/id is not allowed'),
    patch('highlights field', { highlights: [] }, 'body/highlights is not allowed'),
    patch('body is an array', [{ liked: true }], 'body must be an object'),
    {
      name: 'patch: a body over the 4 MiB JSON limit',
      op: 'patchWebpage',
      send: { call: { params: { id: '{A}' }, body: { title: long(5 * 1024 * 1024) } } },
      status: 413,
      message: 'the request body is larger than the server accepts',
    },
    {
      name: 'patch: invalid JSON',
      op: 'patchWebpage',
      send: { call: { params: { id: '{A}' }, rawBody: '{"liked": tru' } },
      status: 400,
      message: NOT_JSON,
    },
    {
      name: 'patch: no body',
      op: 'patchWebpage',
      send: { call: { params: { id: '{A}' }, contentType: 'application/json' } },
      status: 400,
      message: BODY_REQUIRED,
    },
    {
      name: 'patch: text/plain',
      op: 'patchWebpage',
      send: {
        call: { params: { id: '{A}' }, rawBody: '{"liked":false}', contentType: 'text/plain' },
      },
      status: 400,
      message: CONTENT_TYPE,
    },
    {
      name: 'patch: wrong token',
      op: 'patchWebpage',
      send: { call: { params: { id: '{A}' }, body: { liked: false }, token: 'nope' } },
      status: 401,
      message: 'Invalid token',
    },
    {
      name: 'delete: no token',
      op: 'deleteWebpage',
      send: { call: { params: { id: '{A}' }, token: null } },
      status: 401,
      message: 'No authorization header',
    },
  ];
}

function highlightCases(): BadCase[] {
  const create = (name: string, body: unknown, message: string): BadCase => ({
    name: `createHighlight: ${name}`,
    op: 'createHighlight',
    send: { call: { params: { id: '{A}' }, body } },
    status: 400,
    message,
  });
  return [
    create('missing text', { textBefore: '', textAfter: '' }, 'body/text is required'),
    create(
      'empty text',
      { text: '', textBefore: '', textAfter: '' },
      'body/text must not be empty',
    ),
    create(
      'tenThousandth over 10000',
      { text: 'a', textBefore: '', textAfter: '', tenThousandth: 10_001 },
      'body/tenThousandth must be <= 10000',
    ),
    create(
      'tenThousandth as a string',
      { text: 'a', textBefore: '', textAfter: '', tenThousandth: '5' },
      'body/tenThousandth must be a number',
    ),
    create(
      'unknown field',
      { text: 'a', textBefore: '', textAfter: '', color: 'red' },
      'body/color is not allowed',
    ),
    create(
      'huge note',
      { text: 'a', textBefore: '', textAfter: '', note: long(100_001) },
      'body/note must be at most 100000 characters long',
    ),
    {
      name: 'patchHighlight: note missing',
      op: 'patchHighlight',
      send: { call: { params: { id: '{A}', highlight_id: '{H}' }, body: {} } },
      status: 400,
      message: 'body/note is required',
    },
    {
      name: 'patchHighlight: note as a number',
      op: 'patchHighlight',
      send: { call: { params: { id: '{A}', highlight_id: '{H}' }, body: { note: 5 } } },
      status: 400,
      message: 'body/note must be a string',
    },
    {
      name: 'patchHighlight: unknown highlight',
      op: 'patchHighlight',
      send: { call: { params: { id: '{A}', highlight_id: 'nope' }, body: { note: 'x' } } },
      status: 404,
      message: 'highlight nope not found',
    },
    {
      name: 'deleteHighlight: ../ highlight id',
      op: 'deleteHighlight',
      send: { call: { params: { id: '{A}', highlight_id: '../x' } } },
      status: 400,
      message: ENCODED_SLASH,
    },
    {
      name: 'deleteHighlight: unknown highlight',
      op: 'deleteHighlight',
      send: { call: { params: { id: '{A}', highlight_id: 'nope' } } },
      status: 404,
      message: 'highlight nope not found',
    },
    {
      name: 'deleteHighlight: 201-character highlight id',
      op: 'deleteHighlight',
      send: { call: { params: { id: '{A}', highlight_id: long(201) } } },
      status: 404,
      message: 'path/highlight_id must be at most 200 characters long',
    },
  ];
}

function searchCases(): BadCase[] {
  const search = (name: string, query: CallOptions['query'], message: string): BadCase => ({
    name: `search: ${name}`,
    op: 'searchWebpages',
    send: { call: { query } },
    status: 400,
    message,
  });
  return [
    search('no q', {}, 'query/q is required'),
    search('empty q', { q: '' }, 'query/q must not be empty'),
    search('blank q', { q: '  \t ' }, 'query/q must contain something to search for'),
    search('q of 501 characters', { q: long(501) }, 'query/q must be at most 500 characters long'),
    search('q given twice', { q: ['a', 'b'] }, 'query/q must be a string'),
    search('page=0', { q: 'alpha', page: 0 }, 'query/page must be >= 1'),
    search(
      'sort (search has none)',
      { q: 'alpha', sort: 'title_asc' },
      'query/sort is not allowed',
    ),
    {
      name: 'search: an address of 20,000 characters',
      op: 'searchWebpages',
      send: {
        fetch: {
          method: 'GET',
          path: `${API}/search/webpages?q=${long(20_000)}`,
          headers: { authorization: 'Bearer {token}' },
        },
      },
      status: 431,
      message: 'the request headers (or its address) are larger than the server accepts',
    },
  ];
}

function viewCases(): BadCase[] {
  const create = (name: string, body: unknown, message: string | RegExp): BadCase => ({
    name: `createView: ${name}`,
    op: 'createView',
    send: { call: { body } },
    status: 400,
    message,
  });
  const patch = (name: string, body: unknown, message: string): BadCase => ({
    name: `patchView: ${name}`,
    op: 'patchView',
    send: { call: { params: { view_id: '{V}' }, body } },
    status: 400,
    message,
  });
  const missing = (op: OperationId, what: string, viewId: string): BadCase => ({
    name: `${op}: ${what}`,
    op,
    send: {
      call: {
        params: { view_id: viewId },
        ...(op === 'patchView' ? { body: { title: 'x' } } : {}),
      },
    },
    status: 404,
    message: /^view .+ not found$/,
  });
  return [
    create('title missing', {}, 'body/title is required'),
    create('empty title', { title: '' }, 'body/title must not be empty'),
    create('blank title', { title: '   ' }, 'body/title must not be blank'),
    create(
      'title of 501 characters',
      { title: long(501) },
      'body/title must be at most 500 characters long',
    ),
    create('sort 7', { title: 't', sort: 7 }, 'body/sort must be <= 6'),
    create('sort as a string', { title: 't', sort: '4' }, 'body/sort must be an integer'),
    create('sort 1.5', { title: 't', sort: 1.5 }, 'body/sort must be an integer'),
    create('limit 0', { title: 't', limit: 0 }, 'body/limit must be >= 1'),
    create('limit 1e300', { title: 't', limit: 1e300 }, 'body/limit must be <= 100000'),
    create(
      'enableLimit as a string',
      { title: 't', enableLimit: 'yes' },
      'body/enableLimit must be a boolean',
    ),
    create('match xor', { title: 't', match: 'xor' }, 'body/match must be one of and, or'),
    create('filters as an object', { title: 't', filters: {} }, 'body/filters must be an array'),
    create(
      'unknown filter key',
      { title: 't', filters: [{ type: 9, key: 'nope' }] },
      /^body\/filters\/0\/key must be one of host, liked/,
    ),
    create(
      'a number among label operands',
      { title: 't', filters: [{ type: 2, key: 'label', operator: 0, rightOperand: [1] }] },
      'body/filters/0/rightOperand/0 must be a string',
    ),
    create(
      'filter without an operator',
      { title: 't', filters: [{ type: 0, key: 'liked' }] },
      'body/filters/0/operator is required',
    ),
    create(
      '101 filters',
      {
        title: 't',
        filters: Array.from({ length: 101 }, () => ({ type: 0, key: 'liked', operator: true })),
      },
      'body/filters must have at most 100 items',
    ),
    create(
      'a filter that is a string',
      { title: 't', filters: ['liked'] },
      'body/filters/0 must be an object',
    ),
    create('unknown field', { title: 't', id: 'chosen-id' }, 'body/id is not allowed'),
    {
      name: 'createView: invalid JSON',
      op: 'createView',
      send: { call: raw('{"title": "x",}') },
      status: 400,
      message: NOT_JSON,
    },
    {
      name: 'createView: a body over the 4 MiB JSON limit',
      op: 'createView',
      send: { call: json({ title: 't', description: long(4 * 1024 * 1024 + 10) }) },
      status: 413,
      message: 'the request body is larger than the server accepts',
    },
    {
      name: 'previewView: sort 8',
      op: 'previewView',
      send: { call: json({ title: 'p', sort: 8 }) },
      status: 400,
      message: 'body/sort must be <= 6',
    },
    {
      name: 'previewView: no body',
      op: 'previewView',
      send: { call: { contentType: 'application/json' } },
      status: 400,
      message: BODY_REQUIRED,
    },
    patch('empty object', {}, 'body must have at least one field'),
    patch('empty title', { title: '' }, 'body/title must not be empty'),
    patch('limit -1', { limit: -1 }, 'body/limit must be >= 1'),
    patch(
      'filters with a bad operator',
      { filters: [{ type: 1, key: 'annotation', operator: 9, rightOperand: 1 }] },
      'body/filters/0/operator must be one of 0, 1, 2, 3',
    ),
    patch('unknown field', { createdAt: 0 }, 'body/createdAt is not allowed'),
    missing('getView', 'unknown id', '00000000-0000-4000-8000-000000000000'),
    missing('getView', 'deleted view', '{W}'),
    {
      name: 'getView: ../ id',
      op: 'getView',
      send: { call: { params: { view_id: '../views' } } },
      status: 400,
      message: ENCODED_SLASH,
    },
    missing('patchView', 'unknown id', 'nope'),
    missing('patchView', 'deleted view (no resurrection)', '{W}'),
    missing('deleteView', 'unknown id', 'nope'),
    missing('deleteView', 'deleted view', '{W}'),
    missing('listViewWebpages', 'unknown id', '🐹'),
    missing('listViewWebpages', 'deleted view', '{W}'),
    {
      name: 'deleteView: wrong token',
      op: 'deleteView',
      send: { call: { params: { view_id: '{V}' }, token: 'nope' } },
      status: 401,
      message: 'Invalid token',
    },
  ];
}

function otherCases(): BadCase[] {
  const path = (name: string, method: string, to: string, status: number, message: string) => ({
    name,
    send: {
      fetch: { method, path: to, headers: { authorization: 'Bearer {token}' } },
    },
    status,
    message,
  });
  return [
    {
      name: 'version: no token',
      op: 'getVersion',
      send: { call: { token: null } },
      status: 401,
      message: 'No authorization header',
    },
    {
      name: 'facets: empty bearer',
      op: 'getFacets',
      send: { call: { authorization: 'Bearer ' } },
      status: 401,
      message: 'Invalid token',
    },
    {
      name: 'listViews: a token that is a prefix of the real one',
      op: 'listViews',
      send: { call: { token: '{token-prefix}' } },
      status: 401,
      message: 'Invalid token',
    },
    path('unknown API path', 'GET', `${API}/nope`, 404, `no such API endpoint: GET ${API}/nope`),
    path(
      'PUT on the list',
      'PUT',
      `${API}/webpages`,
      404,
      `no such API endpoint: PUT ${API}/webpages`,
    ),
    {
      name: 'unknown API path without a token',
      send: { fetch: { method: 'DELETE', path: `${API}/webpages` } },
      status: 401,
      message: 'No authorization header',
    },
    {
      name: 'not HTTP at all',
      send: { socket: 'HELLO THERE\r\n\r\n' },
      status: 400,
      message: 'the request is not valid HTTP',
    },
    {
      name: 'both Content-Length and chunked (request smuggling shape)',
      send: {
        socket:
          `POST ${API}/views HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n' +
          '0\r\n\r\n',
      },
      status: 400,
      message: 'the request is not valid HTTP',
    },
    {
      name: 'a header of 20,000 characters',
      op: 'getVersion',
      send: {
        fetch: {
          method: 'GET',
          path: `${API}/version`,
          headers: { authorization: 'Bearer {token}', 'x-padding': long(20_000) },
        },
      },
      status: 431,
      message: 'the request headers (or its address) are larger than the server accepts',
    },
  ];
}

/** Folio's feed extension: a missing or deleted view is a 404 and gets no feed secret. */
function feedCases(): BadCase[] {
  const missing = (op: OperationId, what: string, viewId: string): BadCase => ({
    name: `${op}: ${what}`,
    op,
    send: { call: { params: { view_id: viewId } } },
    status: 404,
    message: /^view .+ not found$/,
  });
  return [
    missing('getViewFeed', 'unknown view', '00000000-0000-4000-8000-000000000000'),
    missing('enableViewFeed', 'deleted view (no secret made)', '{W}'),
    missing('rotateViewFeed', 'deleted view (no secret made)', '{W}'),
    missing('disableViewFeed', 'unknown view', 'nope'),
    {
      name: 'enableViewFeed: ../ id',
      op: 'enableViewFeed',
      send: { call: { params: { view_id: '../views' } } },
      status: 400,
      message: ENCODED_SLASH,
    },
    {
      name: 'rotateViewFeed: wrong token',
      op: 'rotateViewFeed',
      send: { call: { params: { view_id: '{V}' }, token: 'nope' } },
      status: 401,
      message: 'Invalid token',
    },
  ];
}

function exportCases(): BadCase[] {
  return [
    {
      name: 'exportArchive: a view and ids',
      op: 'exportArchive',
      send: { call: json({ viewId: '{V}', ids: [] }) },
      status: 400,
      message: 'export a view or a list of ids, not both',
    },
    {
      name: 'createExportLink: an unknown field',
      op: 'createExportLink',
      send: { call: json({ every: true }) },
      status: 400,
      message: 'body/every is not allowed',
    },
  ];
}

const CASES: BadCase[] = [
  ...uploadCases(),
  ...listCases(),
  ...idCases(),
  ...patchCases(),
  ...highlightCases(),
  ...searchCases(),
  ...viewCases(),
  ...otherCases(),
  ...feedCases(),
  ...toSaveCases(),
  ...exportCases(),
];

/** Placeholders for ids known only once the archive is seeded. */
function resolveIds(testCase: BadCase, target: TestServer): BadCase {
  const ids: Record<string, string> = {
    '{A}': pageA,
    '{A-upper}': pageA.toUpperCase(),
    '{deleted}': pageC,
    '{H}': highlightA,
    '{V}': viewV,
    '{W}': viewW,
    '{token-prefix}': target.token.slice(0, -1),
  };
  const text = JSON.stringify(testCase.send).replace(/\{[A-Za-z-]+\}/g, (key) => ids[key] ?? key);
  return { ...testCase, send: JSON.parse(text) as Send };
}

const STATUS_CODES: Record<number, string> = {
  200: 'E0001',
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  431: 'bad_request',
};

/** A message a person can read: no stack frame, file path or internal error name. */
function expectClearMessage(message: unknown): void {
  expect(typeof message).toBe('string');
  const text = message as string;
  expect(text.length).toBeGreaterThan(5);
  expect(text.length).toBeLessThanOrEqual(300);
  expect(text).not.toMatch(
    /\n|\bat \S+ \(|at Object\.|\.(ts|js|mjs|cjs):\d+|\/work\/|\/tmp\/|node_modules|FST_|SQLITE|Error:|\[object /,
  );
}

describe('bad requests', () => {
  it('cover every operation of the contract, at least 60 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    const covered = new Set(CASES.map((testCase) => testCase.op));
    expect(ALL_OPERATIONS.filter((op) => !covered.has(op))).toEqual([]);
    expect(new Set(CASES.map((testCase) => testCase.name)).size).toBe(CASES.length);
  });

  it.each(CASES)('$name → $status', async (testCase) => {
    const target = testCase.server === 'small' ? small : server;
    const before = await snapshot(target);
    const response = await send(target, resolveIds(testCase, target));
    const body = response.body as Record<string, unknown>;
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(testCase.status);
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
    expect(body.success).toBe(false);
    expect(body.error).toBe(STATUS_CODES[testCase.status]);
    expectClearMessage(body.message);
    if (typeof testCase.message === 'string') expect(body.message).toBe(testCase.message);
    else expect(body.message).toMatch(testCase.message);
    expect(await snapshot(target)).toEqual(before);
    await expectNoTempFiles(target);
  });
});

// ---- generated input through the HTTP upload path --------------------------------------------

/** Rejects when `promise` takes longer than `ms` (the server runs in another process). */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const ANSWER_WITHIN_MS = 10_000;

describe('generated uploads against the real server process', () => {
  let dataDir: string;
  let proc: SpawnedServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-fuzz-'));
    proc = await spawnServer({ dataDir, token: 'fuzz-token' });
  });

  afterAll(async () => {
    await proc?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Upload `bytes` as `ext`: the answer is a stored record of exactly these bytes, or E0001. */
  async function uploadAnything(bytes: Uint8Array, ext: Ext): Promise<'stored' | 'E0001'> {
    const answer = await within(
      ANSWER_WITHIN_MS,
      call(proc, 'uploadWebpage', { body: { content: b64(bytes), ext } }),
      `upload of ${bytes.length} bytes as ${ext}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    if (answer.body.success === false) {
      expect(answer.body.error).toBe('E0001');
      expectClearMessage(answer.body.message);
      return 'E0001';
    }
    expect(answer.body.data.id).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(answer.body.data.size).toBe(bytes.length);
    const content = await ok(proc, 'getWebpageContent', { params: { id: answer.body.data.id } });
    expect(Buffer.from(content, 'base64').equals(Buffer.from(bytes))).toBe(true);
    return 'stored';
  }

  it.each<Ext>(['html', 'mhtml', 'webarchive'])(
    'random bytes as %s: a record or E0001',
    async (ext) => {
      const outcomes = new Set<string>();
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 16_384 }), async (bytes) => {
          outcomes.add(await uploadAnything(bytes, ext));
        }),
        { numRuns: 40 },
      );
      expect(outcomes.has('E0001')).toBe(true);
    },
  );

  it('valid files with flipped bytes, cut short or spliced: a record or E0001', async () => {
    const valid: [Buffer, Ext][] = [
      [
        makeHtml({ title: 'Fuzz html', description: 'd', singleFileUrl: 'https://f.example/' }),
        'html',
      ],
      [
        makeMhtml({
          html: '<html><head><title>Fuzz mhtml</title></head><body><p>x</p></body></html>',
          url: 'https://f.example/m',
          boundary: '----fuzz----',
          resources: [
            { url: 'https://f.example/a.png', contentType: 'image/png', body: makePng(2, 2) },
          ],
        }),
        'mhtml',
      ],
      [
        makeWebarchive({
          html: '<html><head><title>Fuzz webarchive</title></head><body><p>x</p></body></html>',
          url: 'https://f.example/w',
          subresources: [{ url: 'https://f.example/s.css', mimeType: 'text/css', data: 'p{}' }],
          subframes: [{ html: '<p>frame</p>', url: 'https://f.example/frame' }],
        }),
        'webarchive',
      ],
    ];
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: valid.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.constantFrom<Ext | 'same'>('same', 'same', 'html', 'mhtml', 'webarchive'),
        async (which, flips, cut, declared) => {
          const [file, ext] = valid[which] ?? valid[0]!;
          const bytes = Buffer.from(file);
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const length = cut === undefined ? bytes.length : 1 + (cut % bytes.length);
          outcomes.add(
            await uploadAnything(bytes.subarray(0, length), declared === 'same' ? ext : declared),
          );
        },
      ),
      { numRuns: 120 },
    );
    expect(outcomes).toEqual(new Set(['stored', 'E0001']));
  });

  it('generated JSON bodies to every write: a 2xx or 4xx answer in the envelope, never a 500', async () => {
    const page = await upload(proc, makeHtml({ title: 'Fuzz target' }), 'html');
    const view = await ok(proc, 'createView', { body: { title: 'Fuzz view' } });
    const value = fc.jsonValue({ maxDepth: 3 });
    const plausible = (keys: string[]) =>
      fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
    const targets: [OperationId, CallOptions['params'], string[]][] = [
      ['uploadWebpage', undefined, ['content', 'ext', 'title', 'link']],
      ['patchWebpage', { id: page.id }, ['title', 'excerpt', 'liked', 'read', 'link', 'labels']],
      [
        'createHighlight',
        { id: page.id },
        ['text', 'textBefore', 'textAfter', 'tenThousandth', 'note'],
      ],
      [
        'createView',
        undefined,
        ['title', 'description', 'sort', 'limit', 'enableLimit', 'filters', 'match'],
      ],
      ['previewView', undefined, ['title', 'sort', 'limit', 'enableLimit', 'filters', 'match']],
      [
        'patchView',
        { view_id: view.id },
        ['title', 'description', 'sort', 'limit', 'filters', 'match'],
      ],
    ];
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: targets.length - 1 }),
        fc.oneof(
          value,
          plausible(['content', 'ext', 'title', 'link', 'labels', 'filters', 'note']),
        ),
        fc.nat({ max: targets.length - 1 }).chain((index) => plausible(targets[index]?.[2] ?? [])),
        fc.boolean(),
        async (index, anything, shaped, useShaped) => {
          const [op, params] = targets[index] ?? targets[0]!;
          const answer = await within(
            ANSWER_WITHIN_MS,
            call(proc, op, { ...(params ? { params } : {}), body: useShaped ? shaped : anything }),
            op,
          );
          statuses.add(answer.status);
          expect([200, 400, 404, 413]).toContain(answer.status);
          if (answer.status !== 200) expectClearMessage(answer.body.message);
        },
      ),
      { numRuns: 300 },
    );
    expect(statuses.has(400)).toBe(true);
  });

  it('leaves a healthy, consistent archive: every listed page is its own bytes', async () => {
    const health = await fetch(`${proc.url}/healthz`);
    expect(health.status).toBe(200);
    const list = await ok(proc, 'listWebpages', { query: { per_page: 1000 } });
    expect(list.webpages.length).toBeGreaterThan(0);
    for (const item of list.webpages) {
      const content = await ok(proc, 'getWebpageContent', { params: { id: item.id } });
      const bytes = Buffer.from(content, 'base64');
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(item.id);
      expect(bytes.length).toBe(item.size);
    }
    expect(proc.output()).not.toMatch(/"level":50|internal server error/);
  });
});
