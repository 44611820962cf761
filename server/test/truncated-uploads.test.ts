// A file cut short (an interrupted download or copy) is refused with E0001 and a message that
// says it is truncated, and nothing is stored; the whole file is accepted.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeMhtml, makeWebarchive, withMissingStartPart } from '../../test/support/archives.ts';
import { fails, ok, upload } from './support/api.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const CHROMIUM_MHTML = readFileSync(
  new URL('../../test/fixtures/chromium-sample.mhtml', import.meta.url),
);
const TRUNCATED = /^parse error: .*truncated/;

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await server.close();
});

async function refused(file: Uint8Array, ext: 'mhtml' | 'webarchive'): Promise<string> {
  const answer = await fails(server, 'uploadWebpage', 200, {
    body: { content: Buffer.from(file).toString('base64'), ext },
  });
  expect(answer.error).toBe('E0001');
  return answer.message;
}

async function storedCount(): Promise<number> {
  return (await ok(server, 'listWebpages')).webpages.length;
}

describe('a truncated MHTML', () => {
  it("a 700-byte cut of Chromium's MHTML is refused as truncated, the whole file accepted", async () => {
    expect(await refused(CHROMIUM_MHTML.subarray(0, 700), 'mhtml')).toMatch(TRUNCATED);
    expect(await storedCount()).toBe(0);
    const whole = await upload(server, CHROMIUM_MHTML, 'mhtml');
    expect(whole.link).toBe('https://folio.example/articles/gruesse.html');
    expect(await storedCount()).toBe(1);
  });

  it('every cut that loses the closing boundary is refused as truncated', async () => {
    const closing = CHROMIUM_MHTML.lastIndexOf('------MultipartBoundary--');
    for (const end of [900, Math.floor(CHROMIUM_MHTML.length / 2), closing, closing + 20]) {
      expect(await refused(CHROMIUM_MHTML.subarray(0, end), 'mhtml')).toBe(
        'parse error: the file is truncated: the closing boundary is missing',
      );
    }
    expect(await storedCount()).toBe(0);
  });

  it('a declared start part that is missing is refused as truncated', async () => {
    const file = withMissingStartPart(
      makeMhtml({
        html: '<html><head><title>Start</title></head><body><p>x</p></body></html>',
        url: 'https://start.example/',
      }),
    );
    expect(await refused(file, 'mhtml')).toBe(
      'parse error: the file is truncated: the start part it declares is missing',
    );
    expect(await storedCount()).toBe(0);
  });
});

describe('a truncated webarchive', () => {
  it('a binary plist cut short is refused as truncated, the whole file accepted', async () => {
    const file = makeWebarchive({
      html: `<html><head><title>Safari</title></head><body><p>${'text '.repeat(200)}</p></body></html>`,
      url: 'https://safari.example/',
    });
    for (const end of [700, Math.floor(file.length / 2), file.length - 1, file.length - 12]) {
      expect(await refused(file.subarray(0, end), 'webarchive')).toMatch(TRUNCATED);
    }
    expect(await storedCount()).toBe(0);
    expect((await upload(server, file, 'webarchive')).link).toBe('https://safari.example/');
  });
});
