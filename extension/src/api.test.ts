import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveClient, ArchiveError } from './api.ts';
import { mhtmlLink, savePage, sha256Hex } from './save.ts';

interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
}

const servers: Server[] = [];

/** A real HTTP server on loopback that records every request and answers with `handle`. */
async function listen(
  handle: (
    request: IncomingMessage,
    origin: string,
  ) => { status: number; headers?: Record<string, string>; body?: string },
): Promise<{ origin: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    request.resume();
    request.on('end', () => {
      const answer = handle(request, origin);
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

const VERSION = JSON.stringify({ success: true, data: { name: 'folio', version: '1.0.0' } });

describe('the token goes to the configured origin only', () => {
  it('a redirect to another origin is a failure, and the other origin receives nothing', async () => {
    const elsewhere = await listen(() => ({ status: 200, body: VERSION }));
    const archive = await listen(() => ({
      status: 302,
      headers: { location: `${elsewhere.origin}/public/api/v1/version` },
    }));
    const client = new ArchiveClient(archive.origin, 'secret-token');
    await expect(client.version()).rejects.toBeInstanceOf(ArchiveError);
    expect(archive.requests).toEqual([
      { method: 'GET', url: '/public/api/v1/version', authorization: 'Bearer secret-token' },
    ]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a redirect on the same origin is not followed either (no second request)', async () => {
    const archive = await listen((request) =>
      request.url === '/moved'
        ? { status: 200, body: VERSION }
        : { status: 307, headers: { location: '/moved' } },
    );
    const client = new ArchiveClient(archive.origin, 'secret-token');
    await expect(client.upload('AAAA', 'mhtml')).rejects.toBeInstanceOf(ArchiveError);
    expect(archive.requests.map((request) => request.url)).toEqual(['/public/api/v1/webpages']);
  });

  it('ids that look like addresses stay paths on the configured origin', async () => {
    const seen: string[] = [];
    const fetchImpl = async (input: string, init: RequestInit) => {
      expect(init.redirect).toBe('error');
      expect(init.credentials).toBe('omit');
      seen.push(input);
      return new Response(
        JSON.stringify({ success: true, data: { id: 'x', title: '', labels: [] } }),
      );
    };
    const client = new ArchiveClient('https://archive.example/base', 'secret-token', fetchImpl);
    for (const id of [
      '//evil.example/x',
      '@evil.example',
      '../../x',
      'http://evil.example/',
      '%2F%2Fevil',
    ]) {
      await client.find(id);
      await client.patch(id, { labels: ['a'] });
    }
    expect(seen.length).toBe(10);
    for (const url of seen) {
      expect(new URL(url).origin).toBe('https://archive.example');
      expect(url.startsWith('https://archive.example/base/public/api/v1/webpages/')).toBe(true);
    }
  });

  it('the server’s reason is kept for a refused upload', async () => {
    const archive = await listen(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ success: false, error: 'E0001', message: 'parse error: no boundary' }),
    }));
    const client = new ArchiveClient(archive.origin, 't');
    await expect(client.upload('AAAA', 'mhtml')).rejects.toThrow('parse error: no boundary');
  });
});

describe('savePage', () => {
  const settings = { baseUrl: 'http://archive.test', token: 't', appUrl: '', labels: ['inbox'] };

  /** An archive that has `stored` under the file's id (`byId`) or under its link only. */
  function fakeArchive(stored: { link?: string; labels: string[] } | undefined, byId = true) {
    const calls: { method: string; url: string; body: unknown }[] = [];
    const answer = (data: unknown, status = 200) =>
      new Response(JSON.stringify(status === 200 ? { success: true, data } : data), { status });
    const fetchImpl = async (input: string, init: RequestInit) => {
      const body: unknown = init.body === undefined ? undefined : JSON.parse(String(init.body));
      const method = init.method ?? 'GET';
      calls.push({ method, url: input, body });
      const page = { id: 'p1', title: 'T', ...stored, labels: stored?.labels ?? [] };
      if (method === 'GET' && input.includes('/webpages?')) {
        return answer({ webpages: stored === undefined || byId ? [] : [{ ...page }] });
      }
      if (method === 'GET') {
        return stored !== undefined && byId
          ? answer(page)
          : answer({ success: false, message: 'webpage not found' }, 404);
      }
      if (method === 'PATCH') return answer({ ...page, ...(body as object) });
      return answer({ id: 'p1', title: 'T', labels: [] });
    };
    return { calls, fetchImpl };
  }

  it('uploads a new page, then gives it the tab’s address and the default labels', async () => {
    const archive = fakeArchive(undefined);
    const mhtml = new TextEncoder().encode('MIME-Version: 1.0\r\n\r\n');
    const outcome = await savePage({
      mhtml,
      tabUrl: 'https://site.example/a',
      settings,
      fetchImpl: archive.fetchImpl,
    });
    expect(outcome).toMatchObject({ status: 'saved', pageUrl: 'http://archive.test/webpages/p1' });
    const id = await sha256Hex(mhtml);
    expect(archive.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `GET http://archive.test/public/api/v1/webpages/${id}`,
      'GET http://archive.test/public/api/v1/webpages?link=https%3A%2F%2Fsite.example%2Fa&per_page=20',
      'POST http://archive.test/public/api/v1/webpages',
      'PATCH http://archive.test/public/api/v1/webpages/p1',
    ]);
    expect(archive.calls[2]?.body).toEqual({
      content: btoa('MIME-Version: 1.0\r\n\r\n'),
      ext: 'mhtml',
    });
    expect(archive.calls[3]?.body).toEqual({ link: 'https://site.example/a', labels: ['inbox'] });
  });

  it('a page already there: "exists", no upload, and its link is left alone', async () => {
    const archive = fakeArchive({ link: 'https://kept.example/', labels: ['inbox'] });
    const outcome = await savePage({
      mhtml: new Uint8Array([1, 2, 3]),
      tabUrl: 'https://other.example/',
      settings: { ...settings, appUrl: 'https://app.example/folio/' },
      fetchImpl: archive.fetchImpl,
    });
    expect(outcome).toMatchObject({
      status: 'exists',
      pageUrl: 'https://app.example/folio/webpages/p1',
    });
    expect(archive.calls.map((call) => call.method)).toEqual(['GET']);
  });

  it('another capture of a page already there (same link, new bytes): "exists", no upload', async () => {
    const archive = fakeArchive({ link: 'https://site.example/a', labels: [] }, false);
    const mhtml = new TextEncoder().encode(
      'From: <Saved by Blink>\r\nSnapshot-Content-Location: https://site.example/a\r\nSubject: A\r\n\r\nbody',
    );
    const outcome = await savePage({
      mhtml,
      tabUrl: undefined,
      settings,
      fetchImpl: archive.fetchImpl,
    });
    expect(outcome).toMatchObject({ status: 'exists', page: { id: 'p1' } });
    expect(archive.calls.map((call) => call.method)).toEqual(['GET', 'GET', 'PATCH']);
    expect(archive.calls[1]?.url).toBe(
      'http://archive.test/public/api/v1/webpages?link=https%3A%2F%2Fsite.example%2Fa&per_page=20',
    );
    expect(archive.calls[2]?.body).toEqual({ labels: ['inbox'] });
  });

  it('reads the link from the MHTML header only, as an http(s) address', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(mhtmlLink(encode('Snapshot-Content-Location: https://a.example/x y\r\n\r\n'))).toBe(
      'https://a.example/x%20y',
    );
    expect(
      mhtmlLink(encode('Subject: x\r\n\r\nSnapshot-Content-Location: https://a.example/')),
    ).toBe(undefined);
    expect(mhtmlLink(encode('Snapshot-Content-Location: javascript:alert(1)\r\n\r\n'))).toBe(
      undefined,
    );
  });
});
