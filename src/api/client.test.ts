import { afterEach, describe, expect, it, vi } from 'vitest';

import { authStatus, createApiClient } from './client.ts';
import { unwrap } from './errors.ts';

function stubFetch(status = 200, body: unknown = { success: true, data: { webpages: [] } }) {
  const fetchMock = vi.fn<typeof fetch>(async () => Response.json(body, { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentRequest(fetchMock: ReturnType<typeof stubFetch>): Request {
  const request = fetchMock.mock.calls[0]?.[0];
  expect(request).toBeInstanceOf(Request);
  return request as Request;
}

afterEach(() => {
  vi.unstubAllGlobals();
  authStatus.reset();
});

describe('createApiClient', () => {
  it('sends each request to the base URL and with the token read at call time', async () => {
    let settings = { baseUrl: 'http://one.test', token: 'first' };
    const client = createApiClient(() => settings);

    let fetchMock = stubFetch();
    await unwrap(
      client.GET('/webpages', { params: { query: { liked: 'true', ext: ['html', 'mhtml'] } } }),
    );
    let request = sentRequest(fetchMock);
    expect(request.url).toBe(
      'http://one.test/public/api/v1/webpages?liked=true&ext=html&ext=mhtml',
    );
    expect(request.headers.get('Authorization')).toBe('Bearer first');

    settings = { baseUrl: 'https://two.test/archive/', token: 'second' };
    fetchMock = stubFetch();
    await unwrap(client.GET('/webpages/{id}', { params: { path: { id: 'a b' } } }));
    request = sentRequest(fetchMock);
    expect(request.url).toBe('https://two.test/archive/public/api/v1/webpages/a%20b');
    expect(request.headers.get('Authorization')).toBe('Bearer second');
  });

  it('keeps the method, JSON body and content type of a request', async () => {
    const client = createApiClient(() => ({ baseUrl: 'http://one.test', token: 't' }));
    const fetchMock = stubFetch(200, { success: true, data: {} });
    await client.PATCH('/webpages/{id}', {
      params: { path: { id: 'abc' } },
      body: { liked: true },
    });
    const request = sentRequest(fetchMock);
    expect(request.method).toBe('PATCH');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    await expect(request.json()).resolves.toEqual({ liked: true });
  });

  it('reports 401 answers and clears the flag on the next success', async () => {
    const client = createApiClient(() => ({ baseUrl: 'http://one.test', token: 'bad' }), {
      onStatus: authStatus.report,
    });
    stubFetch(401, { message: 'Invalid token' });
    await expect(unwrap(client.GET('/version'))).rejects.toMatchObject({ status: 401 });
    expect(authStatus.isUnauthorized()).toBe(true);

    stubFetch(200, { success: true, data: { version: '1' } });
    await unwrap(client.GET('/version'));
    expect(authStatus.isUnauthorized()).toBe(false);
  });
});
