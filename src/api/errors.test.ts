import { afterEach, describe, expect, it, vi } from 'vitest';

import { createApiClient } from './client.ts';
import { ApiError, unwrap } from './errors.ts';

const settings = { baseUrl: 'http://archive.test:8080', token: 'secret' };
const client = createApiClient(() => settings);

function mockFetch(response: Response | { throws: unknown }) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    if ('throws' in response) throw response.throws;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('unwrap', () => {
  it('returns the data of a success envelope', async () => {
    mockFetch(json({ success: true, data: { version: '0.9.2' } }));
    await expect(unwrap(client.GET('/version'))).resolves.toEqual({ version: '0.9.2' });
  });

  it('turns a 200 failure envelope into a parse error with its code', async () => {
    mockFetch(json({ success: false, error: 'E0001', message: 'parse error: parse file failed' }));
    const error = await failure(
      unwrap(client.POST('/webpages', { body: { content: 'AAAA', ext: 'mhtml' } })),
    );
    expect(error).toMatchObject({
      kind: 'parse',
      code: 'E0001',
      message: 'parse error: parse file failed',
    });
    expect(error.status).toBeUndefined();
  });

  it('turns a JSON error into an http error with the status and message', async () => {
    mockFetch(json({ message: 'webpage not found' }, 404));
    const error = await failure(
      unwrap(client.GET('/webpages/{id}', { params: { path: { id: 'x' } } })),
    );
    expect(error).toMatchObject({ kind: 'http', status: 404, message: 'webpage not found' });
  });

  it("keeps Folio's stable error code", async () => {
    mockFetch(json({ success: false, error: 'unauthorized', message: 'Invalid token' }, 401));
    const error = await failure(unwrap(client.GET('/version')));
    expect(error).toMatchObject({
      kind: 'http',
      status: 401,
      code: 'unauthorized',
      message: 'Invalid token',
    });
  });

  it('uses a text/plain body as the message', async () => {
    mockFetch(
      new Response('Bad Request', { status: 400, headers: { 'Content-Type': 'text/plain' } }),
    );
    const error = await failure(unwrap(client.GET('/webpages')));
    expect(error).toMatchObject({ kind: 'http', status: 400, message: 'Bad Request' });
  });

  it('does not show an HTML error page as the message', async () => {
    mockFetch(
      new Response('<!doctype html><title>502</title>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    const error = await failure(unwrap(client.GET('/webpages')));
    expect(error).toMatchObject({ kind: 'http', status: 502, message: 'HTTP 502 Bad Gateway' });
  });

  it('reports an HTML page answered with 200 as an invalid response', async () => {
    mockFetch(
      new Response('<!doctype html><html><body>web UI</body></html>', {
        status: 200,
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    const error = await failure(unwrap(client.GET('/version')));
    expect(error.kind).toBe('invalid-response');
  });

  it('reports JSON without the envelope as an invalid response', async () => {
    mockFetch(json({ version: '1.0' }));
    const error = await failure(unwrap(client.GET('/version')));
    expect(error.kind).toBe('invalid-response');
  });

  it('reports a failing fetch as offline', async () => {
    mockFetch({ throws: new TypeError('Failed to fetch') });
    const error = await failure(unwrap(client.GET('/version')));
    expect(error).toMatchObject({ kind: 'offline', message: 'Server unreachable' });
    expect(error.status).toBeUndefined();
  });

  it('lets an abort through untouched', async () => {
    mockFetch({ throws: new DOMException('The operation was aborted.', 'AbortError') });
    await expect(unwrap(client.GET('/version'))).rejects.toMatchObject({ name: 'AbortError' });
  });
});
