// Folio's extension of `getWebpageContent`: the bytes themselves to a client whose Accept weighs
// them above JSON (the app's preview reads them in its worker); the envelope otherwise, and always
// as HamsterBase. Either way exactly the uploaded bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, operationUrl, upload } from './support/api.ts';
import { fileFor } from './support/seed.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const BYTES = 'application/octet-stream, application/json;q=0.5';

let folio: TestServer;
let hamster: TestServer;

beforeAll(async () => {
  [folio, hamster] = await Promise.all([
    startTestServer(),
    startTestServer({ asHamsterBase: true }),
  ]);
});

afterAll(async () => {
  await Promise.all([folio.close(), hamster.close()]);
});

function content(server: TestServer, id: string, headers: Record<string, string> = {}) {
  const { url } = operationUrl(server, 'getWebpageContent', { params: { id } });
  return fetch(url, { headers: { authorization: `Bearer ${server.token}`, ...headers } });
}

describe('the original file as bytes', () => {
  it('comes as exactly the uploaded bytes, a download that is never shown as a page', async () => {
    const file = fileFor({ key: 'raw', title: 'Raw bytes', ext: 'mhtml' });
    const { id } = await upload(folio, file, 'mhtml');
    const response = await content(folio, id, { accept: BYTES });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.mhtml"`);
    expect(response.headers.get('content-length')).toBe(String(file.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('vary')).toMatch(/accept/i);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
  });

  it('comes as the envelope when the client weighs JSON higher or says nothing', async () => {
    const file = fileFor({ key: 'env', title: 'Envelope', ext: 'html' });
    const { id } = await upload(folio, file, 'html');
    for (const accept of [undefined, 'application/octet-stream;q=0.1, application/json', '*/*']) {
      const response = await call(folio, 'getWebpageContent', {
        params: { id },
        headers: accept === undefined ? {} : { accept },
      });
      expect(response.status).toBe(200);
      expect(Buffer.from(response.body.data as string, 'base64').equals(Buffer.from(file))).toBe(
        true,
      );
    }
  });

  it('is never sent as HamsterBase, which answers the envelope whatever the client asks', async () => {
    const file = fileFor({ key: 'hb', title: 'As HamsterBase', ext: 'html' });
    const { id } = await upload(hamster, file, 'html');
    const response = await call(hamster, 'getWebpageContent', {
      params: { id },
      headers: { accept: BYTES },
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(response.body.data as string, 'base64').equals(Buffer.from(file))).toBe(
      true,
    );
  });

  it('is refused like the envelope: no token, a deleted page, an unknown id', async () => {
    const file = fileFor({ key: 'gone', title: 'Gone', ext: 'html' });
    const { id } = await upload(folio, file, 'html');
    const anonymous = await fetch(
      operationUrl(folio, 'getWebpageContent', { params: { id } }).url,
      {
        headers: { accept: BYTES },
      },
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    await call(folio, 'deleteWebpage', { params: { id } });
    const deleted = await content(folio, id, { accept: BYTES });
    expect(deleted.status).toBe(404);
    expect(await deleted.json()).toMatchObject({ success: false });
    const unknown = await content(folio, '0'.repeat(64), { accept: BYTES });
    expect(unknown.status).toBe(404);
  });
});
