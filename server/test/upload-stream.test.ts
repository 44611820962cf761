// Streamed uploads and content: the incremental strict base64 decoder against the whole-text
// reference (support/base64-strict.ts), the body reader against JSON.parse, and the server's
// answers to the same bodies with and without a byte order mark (which the reader skips).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeHtml, makeMhtml } from '../../test/support/archives.ts';
import { decodeBase64Strict, decodedLength } from './support/base64-strict.ts';
import { StrictBase64Decoder } from '../src/upload/base64-decoder.ts';
import {
  UploadBodyReader,
  UploadShapeError,
  UploadSyntaxError,
  type ContentSink,
} from '../src/upload/body-reader.ts';
import { uploadShapeOf } from '../src/upload/upload-shape.ts';
import { ok, operationUrl, upload } from './support/api.ts';
import { storedIds, storedOriginals } from './support/originals.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** Feeds `text` to a decoder in the given pieces, the way the body reader does. */
function decodeInPieces(text: string, cuts: readonly number[], maxBytes = Infinity) {
  const out: Buffer[] = [];
  const decoder = new StrictBase64Decoder((bytes) => out.push(Buffer.from(bytes)), maxBytes);
  const points = [...new Set([0, ...cuts.map((cut) => cut % (text.length + 1)), text.length])].sort(
    (a, b) => a - b,
  );
  for (let i = 1; i < points.length; i++) {
    const piece = text.slice(points[i - 1], points[i]);
    // Printable one-byte runs go in bulk, anything else unit by unit.
    if (/^[\x20-\xff]*$/.test(piece) && i % 2 === 0) decoder.ascii(piece);
    else for (let k = 0; k < piece.length; k++) decoder.unit(piece.charCodeAt(k));
  }
  return { summary: decoder.finish(), bytes: Buffer.concat(out) };
}

const base64ish = fc.string({
  unit: fc.constantFrom(
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.é',
  ),
  maxLength: 40,
});

describe('StrictBase64Decoder', () => {
  it('agrees with decodeBase64Strict and decodedLength on any text, however it is cut', () => {
    const text = fc.oneof(
      base64ish,
      fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 30 }), base64ish)
        .map(([bytes, noise]) => Buffer.from(bytes).toString('base64') + noise),
    );
    fc.assert(
      fc.property(text, fc.array(fc.nat(60), { maxLength: 6 }), (input, cuts) => {
        const { summary, bytes } = decodeInPieces(input, cuts);
        const expected = decodeBase64Strict(input);
        expect(summary.valid).toBe(expected !== undefined);
        expect(summary.length).toBe(input.length);
        if (input.length % 4 === 0) expect(summary.decodedLength).toBe(decodedLength(input));
        if (expected !== undefined) {
          expect(bytes.equals(expected)).toBe(true);
          expect(summary.bytes).toBe(expected.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('stops handing out bytes past the limit, and says so', () => {
    const text = Buffer.alloc(3000, 7).toString('base64');
    const within = decodeInPieces(text, [5, 1000], 3000);
    expect(within.summary).toMatchObject({ valid: true, overflow: false, bytes: 3000 });
    const over = decodeInPieces(text, [5, 1000], 2999);
    expect(over.summary.valid).toBe(true);
    expect(over.summary.overflow).toBe(true);
    expect(over.bytes.length).toBeLessThanOrEqual(2999);
  });
});

/** A sink that rebuilds the content string from what it is given. */
function collectingSink(into: string[]): ContentSink {
  let text = '';
  into.push('');
  const index = into.length - 1;
  return {
    ascii(run) {
      text += run;
      into[index] = text;
    },
    unit(code) {
      text += String.fromCharCode(code);
      into[index] = text;
    },
  };
}

const shape = uploadShapeOf();

/** The reader's result for `body` cut at `cuts`, or the error it threw. */
function readBody(body: string | Buffer, cuts: readonly number[]) {
  const contents: string[] = [];
  const reader = new UploadBodyReader(shape, () => collectingSink(contents));
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const points = [
    ...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length]),
  ].sort((a, b) => a - b);
  try {
    for (let i = 1; i < points.length; i++) reader.write(bytes.subarray(points[i - 1], points[i]));
    return { read: reader.end(), contents, error: undefined };
  } catch (error) {
    return { read: undefined, contents, error };
  }
}

/** Whether a parsed JSON value is a body the reader takes: an object of known string fields. */
function hasUploadShape(value: unknown): value is Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(value).every(([key, field]) => {
    if (typeof field !== 'string') return false;
    if (key === 'content') return true;
    const rule = shape.fields.get(key);
    return rule !== undefined && field.length <= rule.maxLength;
  });
}

describe('UploadBodyReader', () => {
  const jsonText = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  );
  /** A key as JSON, sometimes spelled with escapes. */
  const keyJson = (key: string, escaped: boolean) =>
    escaped
      ? `"${[...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(key);

  it('hands over the content string and keeps the other fields, however the body is cut', () => {
    const body = fc
      .tuple(
        fc.subarray(['ext', 'title', 'link']),
        fc.array(
          // Within every field's limit (ext: 10 characters).
          fc.string({ unit: 'grapheme', maxLength: 10 }).filter((value) => value.length <= 10),
          { minLength: 3, maxLength: 3 },
        ),
        jsonText,
        fc.nat(3),
        fc.constantFrom('', ' ', '\n\t '),
        fc.boolean(),
      )
      .map(([keys, values, content, at, space, escaped]) => {
        const entries: [string, string][] = keys.map((key, i) => [key, values[i] ?? '']);
        entries.splice(Math.min(at, entries.length), 0, ['content', content]);
        const text = `{${entries
          .map(
            ([key, value]) =>
              `${space}${keyJson(key, escaped)}${space}:${space}${JSON.stringify(value)}`,
          )
          .join(',')}${space}}`;
        const fields = Object.fromEntries(entries.filter(([key]) => key !== 'content'));
        return { text, content, fields };
      });
    fc.assert(
      fc.property(
        body,
        fc.array(fc.nat(400), { maxLength: 8 }),
        ({ text, content, fields }, cuts) => {
          const { read, contents, error } = readBody(text, cuts);
          expect(error).toBeUndefined();
          expect(read).toEqual({ fields, content: content === '' ? 'empty' : 'text' });
          expect(contents).toEqual([content]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('takes exactly the JSON bodies of the upload shape, and tells other JSON from not JSON', () => {
    const anyJson = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc
        .dictionary(
          fc.constantFrom('content', 'ext', 'title', 'link', 'x'),
          fc.oneof(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })),
          { maxKeys: 4 },
        )
        .map((value) => JSON.stringify(value)),
    );
    const text = fc.oneof(
      anyJson,
      // Bodies that are mostly JSON: cut short, or with a byte changed.
      fc.tuple(anyJson, fc.nat()).map(([json, at]) => json.slice(0, at % (json.length + 1))),
      fc
        .tuple(anyJson, fc.nat(), fc.constantFrom('"', '\\', ',', '}', '{', ']', 'x', '\n'))
        .map(([json, at, char]) => {
          const index = at % (json.length + 1);
          return json.slice(0, index) + char + json.slice(index + 1);
        }),
    );
    fc.assert(
      fc.property(text, fc.array(fc.nat(200), { maxLength: 4 }), (body, cuts) => {
        let value: unknown;
        let json = true;
        try {
          value = JSON.parse(body);
        } catch {
          json = false;
        }
        const { read, contents, error } = readBody(body, cuts);
        if (body === '') {
          expect(read).toBeUndefined();
          expect(error).toBeUndefined();
        } else if (!json) {
          // Refused: not JSON, or another shape that showed before the error.
          expect(read).toBeUndefined();
          expect(error).toBeInstanceOf(Error);
        } else if (hasUploadShape(value)) {
          const { content, ...fields } = value;
          expect(error).toBeUndefined();
          expect(read?.fields).toEqual(fields);
          expect(contents).toEqual(content === undefined ? [] : [content]);
        } else {
          expect(error).toBeInstanceOf(UploadShapeError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes JSON escapes in the content string and in the other fields', () => {
    const { read, contents } = readBody(
      String.raw`{"ext":"ht\u006dl","title":"\u00e9t\u00E9 \ud83d\ude00 \"q\"","content":"QU\/B\u0041\"\\\n\t\u00e9x"}`,
      [3, 17, 26, 30, 61],
    );
    expect(read).toEqual({ fields: { ext: 'html', title: 'été 😀 "q"' }, content: 'text' });
    expect(contents).toEqual(['QU/BA"\\\n\téx']);
  });

  it('counts non-ASCII characters as JavaScript does (UTF-16 code units)', () => {
    const content = 'aé日😀';
    const units: number[] = [];
    const reader = new UploadBodyReader(shape, () => ({
      ascii: (run) => units.push(...[...run].map((c) => c.charCodeAt(0))),
      unit: (code) => units.push(code),
    }));
    const body = Buffer.from(JSON.stringify({ content, title: content }));
    // Cut inside the characters' UTF-8 sequences.
    for (let at = 0; at < body.length; at += 3) reader.write(body.subarray(at, at + 3));
    expect(reader.end()?.fields).toEqual({ title: content });
    expect(units).toHaveLength(content.length);
    expect(String.fromCharCode(...units)).toBe(content);
  });

  it('refuses content given twice, and lets the last of another repeated field win', () => {
    const twice = readBody('{"content":"QUFB","ext":"html","content":""}', [5]);
    expect(twice.error).toEqual(new UploadShapeError('body/content must be given once', 'content'));
    const ext = readBody('{"content":"QUFB","ext":"html","ext":"mhtml"}', [5]);
    expect(ext.read).toEqual({ fields: { ext: 'mhtml' }, content: 'text' });
  });

  it('refuses content anywhere but as a top-level string, before reading further', () => {
    for (const [body, message, field] of [
      ['{"x":{"content":"nested"},"content":"QUFB"}', 'body/x is not allowed', undefined],
      ['{"ext":"html","content":["QUFB"]}', 'body/content must be a string', 'content'],
      ['{"ext":"html","content":{"content":"QUFB"}}', 'body/content must be a string', 'content'],
      ['{"content":5,"ext":"html"}', 'body/content must be a string', 'content'],
      ['{"content":null}', 'body/content must be a string', 'content'],
      ['{"title":["x"]}', 'body/title must be a string', 'title'],
      ['[{"content":"QUFB"}]', 'body must be an object', undefined],
      ['"QUFB"', 'body must be an object', undefined],
    ] as const) {
      // Refused at the first byte of the wrong value: what follows is not read (nor JSON here).
      const { error } = readBody(`${body}\u0000\u0000`, [4, 14]);
      expect(error, body).toEqual(new UploadShapeError(message, field));
    }
  });

  it('refuses a field over its limit as the contract would, without holding the rest', () => {
    const title = readBody(`{"title":"${'t'.repeat(100_000)}`, [10, 5000]);
    expect(title.error).toEqual(
      new UploadShapeError('body/title must be at most 2000 characters long', 'title'),
    );
    const ext = readBody(`{"ext":"${'e'.repeat(11)}`, []);
    expect(ext.error).toEqual(
      new UploadShapeError('body/ext must be one of html, mhtml, webarchive', 'ext'),
    );
    const key = readBody(`{"${'k'.repeat(100_000)}`, [7]);
    expect(key.error).toBeInstanceOf(UploadShapeError);
  });

  it('reports a string that breaks JSON (raw control characters, bad escapes, no end)', () => {
    for (const body of [
      '{"content":"QUFB\nQUFB","ext":"html"}',
      String.raw`{"content":"QU\xB","ext":"html"}`,
      String.raw`{"content":"QU\u00G1","ext":"html"}`,
      '{"ext":"html","content":"QUFB',
      '{"ext":"ht\tml","content":"QUFB"}',
    ]) {
      const { read, error } = readBody(body, [4, 14]);
      expect(read, body).toBeUndefined();
      expect(error, body).toBeInstanceOf(UploadSyntaxError);
    }
  });

  it('skips a byte order mark, and takes no bytes as no body', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"content":"QUFB"}')]);
    for (const cut of [1, 2, 3, 5]) {
      expect(readBody(bom, [cut]).read, String(cut)).toEqual({ fields: {}, content: 'text' });
    }
    expect(readBody('', []).read).toBeUndefined();
    for (const body of ['nonsense', ' ', '{"ext" 1, "content":"QUFB"}', '\uFEFF\uFEFF{}']) {
      expect(readBody(body, [2]).error, body).toBeInstanceOf(UploadSyntaxError);
    }
  });
});

describe('streamed uploads over HTTP', () => {
  let streamed: TestServer;
  let whole: TestServer;

  beforeAll(async () => {
    // Two archives with the same clock and limit: one gets the bodies as they are, the other the
    // same bodies after a byte order mark (which JSON parsers skip, and so does the reader).
    streamed = await startTestServer({ maxUploadBytes: 64 * 1024 });
    whole = await startTestServer({ maxUploadBytes: 64 * 1024 });
    streamed.clock.set(1_750_000_000_000);
    whole.clock.set(1_750_000_000_000);
  });

  afterAll(async () => {
    await streamed.close();
    await whole.close();
  });

  async function post(server: TestServer, body: string | Buffer) {
    const response = await fetch(operationUrl(server, 'uploadWebpage').url, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  function stagingLeft(server: TestServer): string[] {
    const folder = join(server.dataDir, 'blobs', '.staging');
    return existsSync(folder) ? readdirSync(folder) : [];
  }

  const html = makeHtml({ title: 'Streamed', body: '<p>streamed upload</p>' });
  const b64 = html.toString('base64');
  const mhtml = makeMhtml({
    html: '<html><head><title>MHTML</title></head><body><p>x</p></body></html>',
    url: 'https://mhtml.example/a',
    date: new Date('2026-01-02T03:04:05Z'),
  }).toString('base64');
  const big = makeHtml({ title: 'big', body: `<p>${'y'.repeat(80 * 1024)}</p>` }).toString(
    'base64',
  );

  const bodies: [string, string][] = [
    ['plain', JSON.stringify({ content: b64, ext: 'html' })],
    [
      'title and link',
      JSON.stringify({
        ext: 'html',
        title: 'Given',
        link: 'https://Given.example:8080/x',
        content: b64,
      }),
    ],
    [
      'escaped slashes and \\u escapes',
      `{"content":"${b64.replaceAll('/', '\\/').replace(/^P/, '\\u0050')}","ext":"html"}`,
    ],
    ['mhtml', JSON.stringify({ content: mhtml, ext: 'mhtml' })],
    ['html declared as mhtml', JSON.stringify({ content: b64, ext: 'mhtml' })],
    ['not base64', JSON.stringify({ content: 'not base64!', ext: 'html' })],
    ['cut base64', JSON.stringify({ content: b64.slice(0, -1), ext: 'html' })],
    ['trailing newline', JSON.stringify({ content: `${b64}\n`, ext: 'html' })],
    [
      'url-safe alphabet',
      JSON.stringify({ content: b64.replaceAll('+', '-').replaceAll('/', '_'), ext: 'html' }),
    ],
    ['padding inside', JSON.stringify({ content: 'QQ==QQ==', ext: 'html' })],
    ['non-zero pad bits', JSON.stringify({ content: 'QR==', ext: 'html' })],
    ['non-ASCII', JSON.stringify({ content: 'QUFBé===', ext: 'html' })],
    ['decoded too large', JSON.stringify({ content: big, ext: 'html' })],
    ['too large and invalid', JSON.stringify({ content: `${big.slice(0, -4)}!!!!`, ext: 'html' })],
    ['empty content', JSON.stringify({ content: '', ext: 'html' })],
    ['content not a string', JSON.stringify({ content: 12, ext: 'html' })],
    ['missing content', JSON.stringify({ ext: 'html' })],
    ['bad ext', JSON.stringify({ content: b64, ext: 'pdf' })],
    ['extra field', JSON.stringify({ content: b64, ext: 'html', extra: true })],
    ['bad link', JSON.stringify({ content: b64, ext: 'html', link: 'javascript:alert(1)' })],
    ['title not a string', JSON.stringify({ content: b64, ext: 'html', title: 3 })],
    ['repeated content, last wins', `{"content":"${mhtml}","ext":"html","content":"${b64}"}`],
    ['repeated content, last not a string', `{"content":"${b64}","ext":"html","content":5}`],
    [
      'raw control character in content',
      `{"content":"${b64.slice(0, 8)}\n${b64.slice(8)}","ext":"html"}`,
    ],
    ['bad escape in content', `{"content":"\\x${b64}","ext":"html"}`],
    ['unterminated', `{"ext":"html","content":"${b64}`],
    ['trailing garbage', `${JSON.stringify({ content: b64, ext: 'html' })} x`],
    ['array', JSON.stringify([{ content: b64, ext: 'html' }])],
    ['prototype poisoning', `{"content":"${b64}","ext":"html","__proto__":{"x":1}}`],
  ];

  it('answers the same with or without a byte order mark, and leaves no temp file', async () => {
    for (const [name, body] of bodies) {
      const a = await post(streamed, body);
      const b = await post(
        whole,
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]),
      );
      expect(a, name).toEqual(b);
      expect(stagingLeft(streamed), name).toEqual([]);
    }
    // Both archives hold the same files and pages.
    const list = async (server: TestServer) => (await ok(server, 'listWebpages')).webpages;
    expect(await list(streamed)).toEqual(await list(whole));
    expect(storedOriginals(streamed.dataDir)).toEqual(storedOriginals(whole.dataDir));
    expect(storedIds(streamed.dataDir).length).toBeGreaterThan(0);
  });

  it('stores the exact bytes when the body arrives in small pieces', async () => {
    const file = makeHtml({ title: 'Pieces', body: `<p>${'piece '.repeat(5000)}</p>` });
    const body = Buffer.from(JSON.stringify({ ext: 'html', content: file.toString('base64') }));
    const { url } = operationUrl(streamed, 'uploadWebpage');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${streamed.token}`,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let at = 0; at < body.length; at += 997) {
          req.write(body.subarray(at, at + 997));
          await new Promise((next) => setImmediate(next));
        }
        req.end();
      })();
    });
    expect(answer.status).toBe(200);
    const page = (JSON.parse(answer.body) as { data: { id: string; size: number } }).data;
    expect(page.id).toBe(createHash('sha256').update(file).digest('hex'));
    const content = await ok(streamed, 'getWebpageContent', { params: { id: page.id } });
    expect(Buffer.from(content, 'base64').equals(file)).toBe(true);
  });

  it('removes the temp file of an upload the client abandons', async () => {
    const server = await startTestServer();
    try {
      const { url } = operationUrl(server, 'uploadWebpage');
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          'content-length': 10_000_000,
        },
      });
      req.on('error', () => undefined);
      // More than the parser gathers before its first write to the temp file.
      req.write(`{"ext":"html","content":"${Buffer.alloc(3 << 20, 1).toString('base64')}`);
      await vi.waitFor(() => expect(stagingLeft(server).length).toBe(1), { timeout: 10_000 });
      req.destroy();
      await vi.waitFor(() => expect(stagingLeft(server)).toEqual([]), { timeout: 10_000 });
      expect((await ok(server, 'getVersion')).name).toBe('folio');
    } finally {
      await server.close();
    }
  });
});

describe('streamed content', () => {
  it('is the exact bytes, with the right length, for any size', async () => {
    const server = await startTestServer();
    try {
      for (const extra of [0, 1, 2, 3 * 128 * 1024 + 1, 3 * 128 * 1024 * 2 + 2]) {
        const file = makeHtml({ title: `size ${extra}`, body: `<p>${'z'.repeat(extra)}</p>` });
        const page = await upload(server, file, 'html');
        const { url } = operationUrl(server, 'getWebpageContent', { params: { id: page.id } });
        const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
        const text = await response.text();
        expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
        const data = (JSON.parse(text) as { success: boolean; data: string }).data;
        expect(data).toBe(file.toString('base64'));
      }
    } finally {
      await server.close();
    }
  });
});
