// The preview's linked MHTML (Folio's extension of getWebpageContent): an MHTML page whose large
// images, fonts and media come as signed links outside the API's token scope. A link gives exactly
// its part's bytes, as its declared type, to anyone holding the address, until it expires; every
// other address under /parts, a changed one included, is the same 404.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseMhtml, type MhtmlPart } from '../../shared/formats/mhtml.ts';
import { closeDatabase, openDatabase } from '../src/store/database.ts';
import { TokenStore } from '../src/store/tokens.ts';
import { makeMhtml, makeNoisePng, makePng } from '../../test/support/archives.ts';
import { call, fetchContent, rawGet, upload } from './support/api.ts';
import { withFolioAndHamster } from './support/folio-and-hamster.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** What the app's preview asks for when it can load parts by link (src/api/original-file.ts). */
const LINKED =
  'application/vnd.folio.linked-mhtml, application/vnd.folio.binary-mhtml;q=0.95, application/octet-stream;q=0.9, application/json;q=0.5';

let folio: TestServer;
let hamster: TestServer;

withFolioAndHamster((servers) => ({ folio, hamster } = servers));

function content(server: TestServer, id: string, accept = LINKED) {
  return fetchContent(server, id, { accept });
}

const PHOTO = makeNoisePng(200, 150); // ~90 kB: linked
const LARGE_PHOTO = makeNoisePng(400, 300); // ~360 kB: the file is kept in the blob store
const ICON = makePng(16, 16, [0, 0, 255]); // tiny: stays in the answer

function article(photo: Buffer): Buffer {
  return makeMhtml({
    url: 'https://example.org/article',
    html: '<!DOCTYPE html><title>Linked</title><p>Text</p><img src="https://example.org/photo.png"><img src="https://example.org/icon.png">',
    resources: [
      { url: 'https://example.org/photo.png', contentType: 'image/png', body: photo },
      { url: 'https://example.org/icon.png', contentType: 'image/png', body: ICON },
      { url: 'https://example.org/style.css', contentType: 'text/css', body: 'p{color:red}' },
    ],
  });
}

function partAt(parts: readonly MhtmlPart[], location: string): MhtmlPart {
  const part = parts.find((candidate) => candidate.contentLocation === location);
  if (part === undefined) throw new Error(`no part for ${location}`);
  return part;
}

/** The linked answer for a new upload of `file`, and the address of its photo's link. */
async function linkedPhoto(file: Buffer, server = folio) {
  const { id } = await upload(server, file, 'mhtml');
  return linkedPhotoOf(id, server);
}

/** The linked answer of page `id` now, and the address of its photo's link. */
async function linkedPhotoOf(id: string, server = folio) {
  const response = await content(server, id);
  expect(response.headers.get('content-type')).toBe('application/vnd.folio.linked-mhtml');
  const archive = parseMhtml(Buffer.from(await response.arrayBuffer()));
  const photo = partAt(archive.parts, 'https://example.org/photo.png');
  const path = photo.headers.get('folio-part-url');
  if (path === undefined) throw new Error('the photo is not linked');
  return { id, archive, photo, path };
}

function get(path: string, init: RequestInit = {}) {
  return fetch(`${folio.url}/${path}`, init);
}

async function expectRefused(response: Response) {
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({
    success: false,
    error: 'not_found',
    message: 'part not found',
  });
}

describe('an MHTML page with its large parts as links (the preview)', () => {
  it('keeps text, styles and small images in the answer and links the large image', async () => {
    for (const photoBytes of [PHOTO, LARGE_PHOTO]) {
      const { archive, photo, path } = await linkedPhoto(article(photoBytes));
      expect(photo.body.length).toBe(0);
      expect(photo.contentType).toBe('image/png');
      expect(path).toMatch(/^parts\/[0-9a-f]+\/\d+\/\d+\/base64\/\d+\/image\/png\/[\w-]{43}$/);
      expect(Buffer.from(partAt(archive.parts, 'https://example.org/icon.png').body)).toEqual(ICON);
      expect(
        new TextDecoder().decode(partAt(archive.parts, 'https://example.org/style.css').body),
      ).toBe('p{color:red}');
      expect(new TextDecoder().decode(archive.main.body)).toContain('<p>Text</p>');

      // The link needs no token and gives the image's bytes, never as a document.
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+, immutable$/);
      expect(Buffer.from(await response.arrayBuffer()).equals(photoBytes)).toBe(true);
    }
  });

  it('names its images in a Link header, relative to the request, to load ahead', async () => {
    const { id } = await upload(folio, article(PHOTO), 'mhtml');
    const response = await content(folio, id);
    const archive = parseMhtml(Buffer.from(await response.arrayBuffer()));
    const photo = partAt(archive.parts, 'https://example.org/photo.png');
    const header = response.headers.get('link') ?? '';
    const [reference, ...params] = header.split(';').map((piece) => piece.trim());
    expect(params).toEqual(['rel=preload', 'as=image']);
    const resolved = new URL(reference!.slice(1, -1), response.url).href;
    expect(resolved).toBe(`${folio.url}/${photo.headers.get('folio-part-url')}`);
    // Asked for twice (decoded ahead, then read from the file): the same bytes.
    for (let time = 0; time < 2; time++) {
      expect(Buffer.from(await (await fetch(resolved)).arrayBuffer()).equals(PHOTO)).toBe(true);
    }
  });

  it('gives the same address all day, and refuses it once expired', async () => {
    const { id, path } = await linkedPhoto(article(PHOTO));
    const again = await content(folio, id);
    const photo = partAt(
      parseMhtml(Buffer.from(await again.arrayBuffer())).parts,
      'https://example.org/photo.png',
    );
    expect(photo.headers.get('folio-part-url')).toBe(path);
    const expires = Number(path.split('/')[5]) * 1000;
    const hours = (expires - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(24);
    expect(hours).toBeLessThanOrEqual(48);
    folio.clock.set(expires - 1000);
    expect((await get(path)).status).toBe(200);
    folio.clock.set(expires);
    await expectRefused(await get(path));
    folio.clock.set(Date.now());
  });

  it('refuses every changed address, whatever else it carries, with one 404', async () => {
    const { id, path } = await linkedPhoto(article(PHOTO));
    const segments = path.split('/');
    const changed = (index: number, value: string) =>
      segments.map((segment, at) => (at === index ? value : segment)).join('/');
    const signature = segments[8]!;
    const otherSignature = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    // Other spellings of the same digest: its last character's two spare bits changed.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const digest = Buffer.from(signature, 'base64url');
    const sameDigest = [...alphabet]
      .map((last) => signature.slice(0, -1) + last)
      .filter((spelling) => spelling !== signature)
      .filter((spelling) => Buffer.from(spelling, 'base64url').equals(digest));
    expect(sameDigest).toHaveLength(3);
    const attempts = [
      changed(2, String(Number(segments[2]) - 1)), // an earlier start: other bytes
      changed(3, String(Number(segments[3]) + 1)),
      changed(4, 'binary'), // the base64 text itself
      changed(5, String(Number(segments[5]) + 86_400)), // a later expiry
      changed(6, 'text').replace('/png/', '/html/'), // served as a page
      changed(7, 'svg+xml'),
      changed(8, otherSignature),
      ...sameDigest.map((spelling) => changed(8, spelling)),
      changed(8, signature.slice(0, 42)),
      segments.slice(0, 8).join('/'),
      `${path}/more`,
      path.replace(id, id.slice(0, -1) + (id.endsWith('0') ? '1' : '0')),
      'parts/',
      'parts',
    ];
    for (const attempt of attempts) {
      const response = await get(attempt);
      expect({ attempt, status: response.status }).toEqual({ attempt, status: 404 });
      await expectRefused(response);
    }
    // The API's token is no way in either.
    await expectRefused(
      await get(changed(8, otherSignature), {
        headers: { authorization: `Bearer ${folio.token}` },
      }),
    );
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await get(path, { method })).status).toBe(404);
    }
  });

  it('other spellings of a link: its part, a 400 or a 404; a changed one, never a part', async () => {
    const photo = makeNoisePng(110, 100);
    const { id, path } = await linkedPhoto(article(photo));
    const rest = path.slice(`parts/${id}/`.length);
    const hex = (text: string) =>
      [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const spellings = [
      `/%70arts/${id}/${rest}`,
      `/parts/${hex(id)}/${rest}`,
      `/parts/${id}/${rest}/`,
      `//parts/${id}/${rest}`,
      `/parts//${id}/${rest}`,
      `/parts/./${id}/${rest}`,
      `/parts/x/../${id}/${rest}`,
      `/parts/${id}/${rest.replace(/\/([^/]+)$/, '%2f$1')}`,
      `/PARTS/${id}/${rest}`,
      `http://127.0.0.1/parts/${id}/${rest}`,
    ];
    const signature = rest.slice(rest.lastIndexOf('/') + 1);
    const forged = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const spelling of spellings) {
      const answer = await rawGet(folio, spelling);
      expect([200, 400, 404], spelling).toContain(answer.status);
      if (answer.status === 200) {
        // The part itself, or the app's page for a path the links do not own.
        const type = String(answer.headers['content-type']);
        if (type === 'image/png') expect(answer.bytes.equals(photo), spelling).toBe(true);
        else expect(type, spelling).toMatch(/^text\/html/);
      }
      const changed = await rawGet(folio, spelling.replace(signature, forged), {
        authorization: `Bearer ${folio.token}`,
      });
      expect(String(changed.headers['content-type']), spelling).not.toBe('image/png');
      expect(changed.bytes.includes(photo.subarray(0, 64)), spelling).toBe(false);
    }
  });

  it('is refused once its page is deleted', async () => {
    const { id, path } = await linkedPhoto(article(makeNoisePng(120, 120)));
    expect((await get(path)).status).toBe(200);
    expect((await call(folio, 'deleteWebpage', { params: { id } })).status).toBe(200);
    await expectRefused(await get(path));
  });

  it('is refused once a token is revoked or the default token changes; the next answer links anew', async () => {
    const first = await startTestServer({ keepDataDir: true });
    const { dataDir } = first;
    const at = (server: TestServer, path: string) => fetch(`${server.url}/${path}`);
    let server = first;
    try {
      const { id, path } = await linkedPhoto(article(makeNoisePng(110, 130)), server);
      // The token CLI's way: another connection on the archive's database, while the server runs.
      const db = openDatabase(join(dataDir, 'folio.db'));
      try {
        const tokens = new TokenStore(db);
        const { info } = tokens.create('laptop', Date.now());
        // Making a token changes nothing; revoking one refuses every link handed out before.
        expect((await at(server, path)).status).toBe(200);
        tokens.revoke(info.id, Date.now());
      } finally {
        closeDatabase(db);
      }
      await expectRefused(await at(server, path));
      const afterRevoke = await linkedPhotoOf(id, server);
      expect(afterRevoke.path).not.toBe(path);
      expect((await at(server, afterRevoke.path)).status).toBe(200);

      // The same default token after a restart: the same links (the browser's cache keeps them).
      await server.close();
      server = await startTestServer({ dataDir, keepDataDir: true, token: first.token });
      expect((await linkedPhotoOf(id, server)).path).toBe(afterRevoke.path);
      expect((await at(server, afterRevoke.path)).status).toBe(200);

      // Another default token: the links of the old one are refused.
      await server.close();
      server = await startTestServer({ dataDir, token: 'another-default-token-9876543210' });
      await expectRefused(await at(server, afterRevoke.path));
      const fresh = await linkedPhotoOf(id, server);
      expect((await at(server, fresh.path)).status).toBe(200);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('never passes on a link an uploaded file wrote itself', async () => {
    const honest = await linkedPhoto(article(makeNoisePng(130, 100)));
    // A file that carries a copy of a real link in a part of its own (to any other page's bytes).
    const forged = makeMhtml({
      url: 'https://example.org/forged',
      html: '<title>Forged</title><img src="https://example.org/small.png">',
      resources: [{ url: 'https://example.org/small.png', contentType: 'image/png', body: ICON }],
    })
      .toString('latin1')
      .replace(
        'Content-Location: https://example.org/small.png',
        `Content-Location: https://example.org/small.png\r\nFolio-Part-Url: ${honest.path}`,
      );
    const { id } = await upload(folio, Buffer.from(forged, 'latin1'), 'mhtml');
    const response = await content(folio, id);
    const text = Buffer.from(await response.arrayBuffer()).toString('latin1');
    expect(text).not.toContain(honest.path);
    expect(text.toLowerCase()).not.toContain('folio-part-url');
  });

  it('links a large part stored in binary as it is', async () => {
    const photo = makeNoisePng(150, 100);
    const boundary = 'binary-boundary';
    const file = Buffer.concat([
      Buffer.from(
        [
          'From: <Saved by Blink>',
          'Snapshot-Content-Location: https://example.org/binary',
          'Subject: Binary',
          'MIME-Version: 1.0',
          `Content-Type: multipart/related; type="text/html"; boundary="${boundary}"`,
          '',
          `--${boundary}`,
          'Content-Type: text/html',
          'Content-Location: https://example.org/binary',
          '',
          '<title>Binary</title><img src="https://example.org/photo.png">',
          `--${boundary}`,
          'Content-Type: image/png',
          'Content-Transfer-Encoding: binary',
          'Content-Location: https://example.org/photo.png',
          '',
          '',
        ].join('\r\n'),
        'latin1',
      ),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
    ]);
    const { path } = await linkedPhoto(file);
    expect(path.split('/')[4]).toBe('binary');
    expect(Buffer.from(await (await get(path)).arrayBuffer()).equals(photo)).toBe(true);
  });

  it('is never offered as HamsterBase, whose server has no links', async () => {
    const { id } = await upload(hamster, article(PHOTO), 'mhtml');
    const answer = await call(hamster, 'getWebpageContent', {
      params: { id },
      headers: { accept: LINKED },
    });
    expect(Buffer.from(answer.body.data as string, 'base64').equals(article(PHOTO))).toBe(false);
    expect(typeof answer.body.data).toBe('string');
    const { path } = await linkedPhoto(article(PHOTO));
    const response = await fetch(`${hamster.url}/${path}`);
    expect(response.status).toBe(404);
  });

  it('never writes a link’s signature to the request log', async () => {
    const logged = await startTestServer({ logLevel: 'info' });
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const { path } = await linkedPhoto(article(makeNoisePng(100, 110)), logged);
      expect((await fetch(`${logged.url}/${path}`)).status).toBe(200);
    } finally {
      spy.mockRestore();
      await logged.close();
    }
    const requests = written.filter((line) => line.includes('"/parts/'));
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) expect(line).toMatch(/\/image\/png\/\[Redacted\]"/);
  });
});
