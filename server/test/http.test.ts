import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { call, fails, fetchApiError, ok, operationUrl, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('authorization', () => {
  it('refuses a request without the header', async () => {
    const error = await fails(server, 'getVersion', 401, { token: null });
    expect(error).toEqual({
      success: false,
      error: 'unauthorized',
      message: 'No authorization header',
    });
  });

  it('refuses a wrong token', async () => {
    const error = await fails(server, 'listWebpages', 401, { token: 'not-the-token' });
    expect(error.message).toBe('Invalid token');
    expect(error.error).toBe('unauthorized');
  });

  it('refuses a token that only shares a prefix with the real one', async () => {
    const error = await fails(server, 'getVersion', 401, { token: server.token.slice(0, -1) });
    expect(error.message).toBe('Invalid token');
  });

  it('refuses another scheme and a bare "Bearer"', async () => {
    for (const authorization of [`Basic ${server.token}`, 'Bearer', `${server.token}`]) {
      const error = await fails(server, 'getVersion', 401, { authorization });
      expect(error.message).toBe('Invalid token');
    }
  });

  it('accepts the scheme in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const data = await ok(server, 'getVersion', { authorization: `${scheme} ${server.token}` });
      expect(data.name).toBe('folio');
    }
  });

  it('protects unknown API paths too', async () => {
    const response = await fetchApiError(server, '/public/api/v1/nope');
    expect(response.status).toBe(401);
  });
});

describe('getVersion', () => {
  it('answers the package version and the name', async () => {
    const data = await ok(server, 'getVersion');
    expect(data).toEqual({ version: '0.1.0', name: 'folio' });
  });
});

describe('CORS', () => {
  it('echoes the Origin on API answers, errors included', async () => {
    const origin = 'http://elsewhere.example:3000';
    const answered = await call(server, 'getVersion', { headers: { origin } });
    expect(answered.headers.get('access-control-allow-origin')).toBe(origin);
    const refused = await call(server, 'getVersion', { token: null, headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('answers preflights without a token', async () => {
    const { url } = operationUrl(server, 'patchWebpage', { params: { id: 'abc' } });
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://elsewhere.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://elsewhere.example');
    expect(response.headers.get('access-control-allow-methods')).toBe(
      'GET, HEAD, PUT, POST, DELETE, PATCH',
    );
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type',
    );
  });
});

describe('request bodies', () => {
  it('answers invalid JSON with a 400 envelope', async () => {
    const error = await fails(server, 'createView', 400, { rawBody: '{"title": ' });
    expect(error).toEqual({
      success: false,
      error: 'bad_request',
      message: 'the request body is not valid JSON',
    });
  });

  it('accepts GET and DELETE with a JSON content type and no body (as the SDK sends them)', async () => {
    const page = await upload(server, makeHtml({ title: 'Empty body delete' }), 'html');
    const got = await ok(server, 'getWebpage', {
      params: { id: page.id },
      contentType: 'application/json',
    });
    expect(got.id).toBe(page.id);
    const deleted = await ok(server, 'deleteWebpage', {
      params: { id: page.id },
      contentType: 'application/json',
    });
    expect(deleted.title).toBe('Empty body delete');
  });

  it('refuses a POST without a body', async () => {
    const error = await fails(server, 'createView', 400, { contentType: 'application/json' });
    expect(error.message).toMatch(/^body is required/);
  });

  it('refuses a body that is not JSON', async () => {
    const error = await fails(server, 'createView', 400, {
      rawBody: 'title=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(error.message).toBe('Content-Type must be application/json');
    const plain = await fails(server, 'createView', 400, {
      rawBody: '{"title":"x"}',
      contentType: 'text/plain',
    });
    expect(plain.message).toBe('Content-Type must be application/json');
  });

  it('accepts a JSON content type with a charset', async () => {
    const view = await ok(server, 'createView', {
      rawBody: JSON.stringify({ title: 'charset' }),
      contentType: 'application/json; charset=utf-8',
    });
    expect(view.title).toBe('charset');
  });
});

describe('unknown API paths', () => {
  it('are a JSON 404, never the app', async () => {
    for (const path of ['/public/api/v1/nope', '/public/api/nope', '/public/api/v2/webpages']) {
      const response = await fetchApiError(server, path, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    }
  });

  it('includes methods the path does not have', async () => {
    const response = await fetchApiError(server, '/public/api/v1/version', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(404);
  });
});

describe('/healthz', () => {
  it('answers without a token', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('request size', () => {
  it('refuses a body larger than the limit with 413', async () => {
    const small = await startTestServer({ maxUploadBytes: 50 * 1024 });
    try {
      // The JSON body itself exceeds the limit derived from the upload size.
      const huge = makeHtml({ title: 'huge', body: `<p>${'x'.repeat(400 * 1024)}</p>` });
      const error = await fails(small, 'uploadWebpage', 413, {
        body: { content: huge.toString('base64'), ext: 'html' },
      });
      expect(error.error).toBe('payload_too_large');
      // The body fits, the decoded file does not.
      const big = makeHtml({ title: 'big', body: `<p>${'y'.repeat(80 * 1024)}</p>` });
      const tooBig = await fails(small, 'uploadWebpage', 413, {
        body: { content: big.toString('base64'), ext: 'html' },
      });
      expect(tooBig.message).toMatch(/larger than the server accepts/);
      // Just under the limit is fine.
      const fits = makeHtml({ title: 'fits', body: `<p>${'z'.repeat(40 * 1024)}</p>` });
      const page = await upload(small, fits, 'html');
      expect(page.size).toBe(fits.length);
    } finally {
      await small.close();
    }
  });
});

describe('errors', () => {
  it('never leak a stack', async () => {
    const response = await fetchApiError(server, '/public/api/v1/webpages', {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: '{"content": "AAAA", "ext": "html", "__proto__": {"x": 1}}',
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
