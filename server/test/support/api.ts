import { request } from 'node:http';
import { expect } from 'vitest';
import { bodyOf } from '../../../test/support/http-body.ts';
import type { OperationId, SuccessData } from '../../src/http/operations.ts';
import { loadSpec } from '../../src/spec.ts';
import { expectSpecResponse, expectSpecSchema } from './spec-checker.ts';
import type { TestServer } from './test-server.ts';

const spec = loadSpec();

/** What a call needs of a server: an in-process test server or a spawned one. */
export type ApiTarget = Pick<TestServer, 'url' | 'token'>;

type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, QueryValue | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (with the JSON content type unless `contentType` says otherwise). */
  rawBody?: string;
  /** `null` sends no Content-Type; the default is JSON when there is a body. */
  contentType?: string | null;
  /** `null` sends no Authorization header; the default is the server's token. */
  token?: string | null;
  /** Replaces the Authorization header entirely. */
  authorization?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  // The spec checker has validated the shape; tests read fields freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

/** The URL of an operation, built from the spec's path. */
export function operationUrl(
  server: ApiTarget,
  operationId: OperationId,
  options: CallOptions = {},
) {
  const operation = spec.operations.get(operationId);
  if (operation === undefined) throw new Error(`no operation ${operationId}`);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = options.params?.[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const url = new URL(`${server.url}${spec.basePath}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      url.searchParams.append(name, String(item));
    }
  }
  return { url, method: operation.method };
}

/**
 * Calls an operation over HTTP and checks the answer against the spec (status listed for the
 * operation, body matching its schema) before returning it.
 */
export async function call(
  server: ApiTarget,
  operationId: OperationId,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const { url, method } = operationUrl(server, operationId, options);
  const headers = new Headers(options.headers);
  if (options.authorization !== undefined) headers.set('authorization', options.authorization);
  else if (options.token !== null)
    headers.set('authorization', `Bearer ${options.token ?? server.token}`);
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const contentType =
    options.contentType === undefined
      ? body === undefined
        ? undefined
        : 'application/json'
      : options.contentType;
  if (contentType !== undefined && contentType !== null) headers.set('content-type', contentType);
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  expect(response.headers.get('content-type'), `${operationId} content type`).toMatch(
    /^application\/json/,
  );
  const json: unknown = JSON.parse(text);
  expectSpecResponse(operationId, response.status, json);
  return { status: response.status, body: json, headers: response.headers };
}

/** Calls an operation that must succeed (HTTP 200, `success: true`) and returns its data. */
export async function ok<K extends OperationId>(
  server: ApiTarget,
  operationId: K,
  options: CallOptions = {},
): Promise<SuccessData<K>> {
  const response = await call(server, operationId, options);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.success).toBe(true);
  return response.body.data as SuccessData<K>;
}

/** Calls an operation that must fail with `status`; returns the error body (already checked). */
export async function fails(
  server: ApiTarget,
  operationId: OperationId,
  status: number,
  options: CallOptions = {},
): Promise<{ success: false; error: string; message: string }> {
  const response = await call(server, operationId, options);
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(false);
  return response.body;
}

/** A request outside the spec's operations whose answer must be the spec's ErrorBody. */
export async function fetchApiError(
  server: ApiTarget,
  path: string,
  init: RequestInit = {},
): Promise<ApiResponse> {
  const response = await fetch(`${server.url}${path}`, init);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const json: unknown = JSON.parse(await response.text());
  expectSpecSchema('ErrorBody', json);
  return { status: response.status, body: json, headers: response.headers };
}

export type Ext = 'html' | 'mhtml' | 'webarchive';

/** Uploads a file; must succeed. */
export async function upload(
  server: ApiTarget,
  file: Uint8Array,
  ext: Ext,
  extra: { title?: string; link?: string } = {},
): Promise<SuccessData<'getWebpage'>> {
  const data = await ok(server, 'uploadWebpage', {
    body: { content: Buffer.from(file).toString('base64'), ext, ...extra },
  });
  if (!('id' in data)) throw new Error('upload answered without a webpage');
  return data;
}

/** `GET /webpages/{id}/content` with the token and `headers` (`Accept`), as a raw answer. */
export function fetchContent(server: ApiTarget, id: string, headers: Record<string, string> = {}) {
  const { url } = operationUrl(server, 'getWebpageContent', { params: { id } });
  return fetch(url, { headers: { authorization: `Bearer ${server.token}`, ...headers } });
}

export interface RawAnswer {
  status: number;
  bytes: Buffer;
  body: string;
  headers: Record<string, unknown>;
}

/** The raw answer of a GET, the target sent exactly as written (no URL normalisation). */
export function rawGet(
  server: ApiTarget,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, method: 'GET', headers },
      (res) => {
        bodyOf(res).then(
          (bytes) =>
            resolve({
              status: res.statusCode ?? 0,
              bytes,
              body: bytes.toString('utf8'),
              headers: res.headers,
            }),
          reject,
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
