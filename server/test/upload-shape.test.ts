// Upload bodies of another shape than the contract's (an object of string fields, `content` once)
// are refused with a 400 as soon as the shape shows, before the rest of the body is read: the
// server never holds such a body (a 150 MB `{"x":{"content":"…"}}` once peaked it at 0.75 GB).
// Each body here announces several MB and sends only its first part: an answer proves that the
// server did not wait for the rest. The archive is unchanged, and no temp file is left.
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { createRequestValidators, loadSpec } from '../src/spec.ts';
import { uploadShapeOf } from '../src/upload/upload-shape.ts';
import { ok, operationUrl, upload } from './support/api.ts';
import { expectSpecResponse } from './support/spec-checker.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const MB = 1024 * 1024;
/** What each body announces (Content-Length); far more than it sends before the answer. */
const ANNOUNCED = 64 * MB;
/** What each body sends: its head, then this much filler. */
const SENT = 2 * MB;

interface Answer {
  status: number;
  body: unknown;
}

/** A generous bound for "does not hang": a server that waits for the rest never answers. */
const NO_ANSWER_MS = 10_000;

/**
 * POSTs an upload that announces ANNOUNCED bytes, sends `head` and SENT bytes of `filler`, and
 * waits for the answer without sending the rest.
 */
function postPartly(server: TestServer, head: string, filler: string): Promise<Answer> {
  const { url } = operationUrl(server, 'uploadWebpage');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${head.slice(0, 40)}… before the rest of its body`));
    }, NO_ANSWER_MS);
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          'content-length': ANNOUNCED,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        });
      },
    );
    // The server closes the connection after its answer: writes still in flight fail, and only
    // the answer counts.
    req.on('error', () => undefined);
    const chunk = Buffer.from(filler.repeat(64 * 1024), 'latin1');
    req.write(head);
    for (let sent = 0; sent < SENT; sent += chunk.length) req.write(chunk);
  });
}

/** The archive as the API and the data folder show it. */
async function snapshot(server: TestServer) {
  const root = join(server.dataDir, 'blobs');
  const files = readdirSync(root)
    .filter((folder) => folder !== '.staging')
    .flatMap((folder) => readdirSync(join(root, folder)).map((name) => `${folder}/${name}`))
    .sort();
  const list = await ok(server, 'listWebpages', { query: { per_page: 1000 } });
  return { files, list };
}

function stagingLeft(server: TestServer): string[] {
  const folder = join(server.dataDir, 'blobs', '.staging');
  return existsSync(folder) ? readdirSync(folder) : [];
}

describe('upload bodies of another shape', () => {
  let server: TestServer;
  const page = makeHtml({ title: 'Already there', body: '<p>kept</p>' });
  const small = makeHtml({ title: 'Small', body: '<p>first content</p>' }).toString('base64');

  beforeAll(async () => {
    server = await startTestServer();
    await upload(server, page, 'html');
  });

  afterAll(async () => {
    await server.close();
  });

  const cases: [name: string, head: string, filler: string, message: string][] = [
    [
      'content nested in another field',
      '{"ext":"html","x":{"content":"',
      'A',
      'body/x is not allowed',
    ],
    [
      'content nested in itself',
      '{"ext":"html","content":{"content":"',
      'A',
      'content or ext is invalid',
    ],
    ['content as an array', '{"ext":"html","content":["', 'A', 'content or ext is invalid'],
    ['content as a number', '{"ext":"html","content":1', '1', 'content or ext is invalid'],
    [
      'content given twice',
      `{"ext":"html","content":"${small}","content":"`,
      'A',
      'content or ext is invalid',
    ],
    ['an unknown huge field', '{"ext":"html","notes":"', 'A', 'body/notes is not allowed'],
    [
      'an unknown field that is a huge object',
      '{"ext":"html","meta":{"a":"',
      'A',
      'body/meta is not allowed',
    ],
    [
      'a huge title',
      '{"ext":"html","title":"',
      't',
      'body/title must be at most 2000 characters long',
    ],
    ['a huge key', '{"', 'k', ''],
    ['a top-level array', '[{"ext":"html","content":"', 'A', 'body must be an object'],
    ['a top-level string', '"', 'A', 'body must be an object'],
  ];

  it('are refused with a 400 before the rest of the body is read, and change nothing', async () => {
    const before = await snapshot(server);
    for (const [name, head, filler, message] of cases) {
      const answer = await postPartly(server, head, filler);
      expect(answer.status, name).toBe(400);
      expectSpecResponse('uploadWebpage', answer.status, answer.body);
      const body = answer.body as { success: boolean; error: string; message: string };
      expect(body.success, name).toBe(false);
      expect(body.error, name).toBe('bad_request');
      if (message === '') expect(body.message, name).toMatch(/^body\/k+… is not allowed$/);
      else expect(body.message, name).toBe(message);
    }
    expect(await snapshot(server)).toEqual(before);
    expect(stagingLeft(server)).toEqual([]);
    // The server goes on: the small file of the repeated-content case uploads as usual.
    const added = await upload(server, Buffer.from(small, 'base64'), 'html');
    expect(added.title).toBe('Small');
  });
});

describe('the limits of the small fields', () => {
  it("are the contract's, and a value past one is answered as the validator answers it", () => {
    const validate = createRequestValidators(loadSpec()).get('uploadWebpage')!;
    const { fields } = uploadShapeOf();
    expect([...fields.keys()].sort()).toEqual(['ext', 'link', 'title']);
    for (const [key, rule] of fields) {
      const body = { content: 'QUFB', ext: 'html', [key]: 'x'.repeat(rule.maxLength + 1) };
      expect(() => validate({ params: {}, query: {}, body }), key).toThrow(rule.tooLong);
      // At the limit, the reader lets the validator judge (`ext` still has to be a known kind).
      const atLimit = { content: 'QUFB', ext: 'html', [key]: 'x'.repeat(rule.maxLength) };
      if (key !== 'ext')
        expect(() => validate({ params: {}, query: {}, body: atLimit })).not.toThrow();
    }
  });
});
