// Folio's extensions of `getWebpageContent`: the bytes themselves to a client whose Accept weighs
// them above JSON (a download); the envelope otherwise, and always as HamsterBase. Either way
// exactly the uploaded bytes. And for an MHTML page, to a client that asks for it (the preview),
// the same archive with its base64 parts in binary.
import { describe, expect, it } from 'vitest';
import { parseMhtml, type Mhtml } from '../../shared/formats/mhtml.ts';
import { makeMhtml, makePng } from '../../test/support/archives.ts';
import { call, fetchContent, operationUrl, upload } from './support/api.ts';
import { fileFor } from './support/seed.ts';
import { withFolioAndHamster } from './support/folio-and-hamster.ts';
import type { TestServer } from './support/test-server.ts';
import {
  binaryMhtmlFile,
  linkedMhtmlFile,
  MAX_CONVERTED_BYTES,
} from '../src/routes/binary-mhtml.ts';
import type { RouteContext } from '../src/routes/context.ts';
import type { Original } from '../src/store/originals.ts';

const BYTES = 'application/octet-stream, application/json;q=0.5';
/** What the app's preview asks for (src/api/original-file.ts). */
const PREVIEW =
  'application/vnd.folio.binary-mhtml, application/octet-stream;q=0.9, application/json;q=0.5';

let folio: TestServer;
let hamster: TestServer;

withFolioAndHamster((servers) => ({ folio, hamster } = servers));

const content = fetchContent;

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

/** What the app's reader makes of an archive: its parts, the page among them, its headers. */
function reading(archive: Mhtml) {
  return {
    parts: archive.parts.map((part) => ({
      contentType: part.contentType,
      charset: part.charset,
      contentLocation: part.contentLocation,
      contentId: part.contentId,
      body: Buffer.from(part.body).toString('base64'),
    })),
    main: archive.parts.indexOf(archive.main),
    snapshotLocation: archive.snapshotLocation,
    subject: archive.subject,
    date: archive.date,
    truncated: archive.truncated,
  };
}

function base64Lines(bytes: Buffer): string {
  return bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
}

/**
 * A page whose HTML part is neither first nor at the top level: an image, then a nested multipart
 * with another document (a frame's) and the page, which the top-level `start` names.
 */
function nestedMhtml(image: Buffer): Buffer {
  return Buffer.from(
    [
      'From: <Saved by Blink>',
      'Snapshot-Content-Location: https://example.org/nested',
      'Subject: =?utf-8?Q?Nested_=C3=A9t=C3=A9?=',
      'Date: Thu, 15 Jan 2026 10:00:00 GMT',
      'MIME-Version: 1.0',
      'Content-Type: multipart/related;',
      '\ttype="text/html";',
      '\tstart="<main@nested>";',
      '\tboundary="outer"',
      '',
      '--outer',
      'Content-Type: image/png',
      'Content-Transfer-Encoding: base64',
      'Content-Location: https://example.org/a.png',
      '',
      base64Lines(image),
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/html',
      'Content-Location: https://example.org/frame.html',
      '',
      '<p>a frame of the page</p>',
      '--inner',
      'Content-Type: text/html; charset=utf-8',
      'Content-ID: <main@nested>',
      'Content-Transfer-Encoding: quoted-printable',
      'Content-Location: https://example.org/nested',
      '',
      '<title>Nested =C3=A9t=C3=A9</title><p>rich</p><img src=3D"https://example.org/a.png">',
      '--inner--',
      '--outer--',
      '',
    ].join('\r\n'),
    'latin1',
  );
}

describe('an MHTML page with its parts in binary (the preview)', () => {
  it('reads as the same archive, smaller, with no base64 left', async () => {
    const file = makeMhtml({
      url: 'https://example.org/article',
      html: '<!DOCTYPE html><html><head><title>Binary parts</title></head><body><p>Text</p><img src="https://example.org/photo.png"></body></html>',
      resources: [
        { url: 'https://example.org/photo.png', contentType: 'image/png', body: makePng(300, 200) },
        { url: 'https://example.org/style.css', contentType: 'text/css', body: 'p { color: red }' },
      ],
    });
    const { id } = await upload(folio, file, 'mhtml');
    const response = await content(folio, id, { accept: PREVIEW });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.folio.binary-mhtml');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.mhtml"`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('vary')).toMatch(/accept/i);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(file.length);
    expect(body.toString('latin1')).not.toMatch(/content-transfer-encoding:\s*base64/i);
    expect(body.toString('latin1')).toMatch(/content-transfer-encoding: binary/i);
    expect(reading(parseMhtml(body))).toEqual(reading(parseMhtml(file)));
  });

  it('keeps the page the top level names, from a nested multipart, flattened', async () => {
    const file = nestedMhtml(makePng(40, 30, [0, 128, 255]));
    const { id } = await upload(folio, file, 'mhtml');
    const response = await content(folio, id, { accept: PREVIEW });
    expect(response.headers.get('content-type')).toBe('application/vnd.folio.binary-mhtml');
    const original = parseMhtml(file);
    const binary = parseMhtml(Buffer.from(await response.arrayBuffer()));
    expect(reading(binary)).toEqual(reading(original));
    expect(binary.main.contentId).toBe('main@nested');
    expect(binary.subject).toBe('Nested été');
  });

  it('is the file itself for any other page, and the envelope as HamsterBase', async () => {
    const file = fileFor({ key: 'preview-html', title: 'Not MHTML', ext: 'html' });
    const { id } = await upload(folio, file, 'html');
    const response = await content(folio, id, { accept: PREVIEW });
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(file))).toBe(true);

    const mhtml = fileFor({ key: 'preview-hb', title: 'As HamsterBase', ext: 'mhtml' });
    const stored = await upload(hamster, mhtml, 'mhtml');
    const answer = await call(hamster, 'getWebpageContent', {
      params: { id: stored.id },
      headers: { accept: PREVIEW },
    });
    expect(Buffer.from(answer.body.data as string, 'base64').equals(Buffer.from(mhtml))).toBe(true);
  });

  it('leaves the download and the envelope the uploaded bytes', async () => {
    const file = fileFor({ key: 'preview-original', title: 'Original', ext: 'mhtml' });
    const { id } = await upload(folio, file, 'mhtml');
    const bytes = await content(folio, id, { accept: BYTES });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
    const envelope = await call(folio, 'getWebpageContent', { params: { id } });
    expect(Buffer.from(envelope.body.data as string, 'base64').equals(Buffer.from(file))).toBe(
      true,
    );
  });
});

describe('the conversion’s bound', () => {
  it('never reads a file past the preview’s own bound: the file goes as it is', async () => {
    const huge: Original = {
      size: MAX_CONVERTED_BYTES + 1,
      stream: () => {
        throw new Error('read');
      },
      bytes: () => Promise.reject(new Error('read')),
      read: () => {
        throw new Error('read');
      },
    };
    expect(await binaryMhtmlFile(huge, 'huge.mhtml')).toBeNull();
    // Nothing of the server is asked either: not even the page's index.
    const context = {} as RouteContext;
    expect(await linkedMhtmlFile(context, 'x', huge, 'huge.mhtml', '/')).toBeNull();
  });
});
