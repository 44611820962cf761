// HamsterBase's own messages for a refused upload (its SDK's tests assert them), each beside
// Folio's own error code.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { call, fails, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await server.close();
});

const CONTENT = Buffer.from(makeHtml({ title: 'Messages' })).toString('base64');

describe("HamsterBase's messages", () => {
  it('a bad ext or a missing content: content or ext is invalid, code bad_request', async () => {
    for (const body of [
      { content: CONTENT, ext: 'pdf' },
      { content: CONTENT },
      { ext: 'html' },
      { content: '', ext: 'html' },
      { content: 12, ext: 'html' },
      { content: CONTENT, ext: ['html'] },
    ]) {
      const answer = await fails(server, 'uploadWebpage', 400, { body });
      expect(answer, JSON.stringify(body)).toEqual({
        success: false,
        error: 'bad_request',
        message: 'content or ext is invalid',
      });
    }
    expect((await ok(server, 'listWebpages')).webpages).toEqual([]);
  });

  it('a bad link: the link message, code bad_request, also when patching', async () => {
    const message = 'link is invalid. link should start link http://www.example.com.';
    for (const link of [
      'not a url',
      'javascript:alert(1)',
      `https://x.example/${'a'.repeat(9000)}`,
    ]) {
      const answer = await fails(server, 'uploadWebpage', 400, {
        body: { content: CONTENT, ext: 'html', link },
      });
      expect(answer).toEqual({ success: false, error: 'bad_request', message });
    }
    const page = await upload(server, Buffer.from(CONTENT, 'base64'), 'html');
    const patched = await fails(server, 'patchWebpage', 400, {
      params: { id: page.id },
      body: { link: 'ftp://example.com/' },
    });
    expect(patched.message).toBe(message);
  });

  it('a file that cannot be parsed: E0001, message beginning with parse error:', async () => {
    for (const [content, ext] of [
      ['not base64!', 'html'],
      [Buffer.from('no markup here').toString('base64'), 'html'],
      [CONTENT, 'mhtml'],
      [CONTENT, 'webarchive'],
    ] as const) {
      const answer = await call(server, 'uploadWebpage', { body: { content, ext } });
      expect(answer.status).toBe(200);
      expect(answer.body.error).toBe('E0001');
      expect(answer.body.message).toMatch(/^parse error: \S/);
    }
  });
});
