import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { installBlobReaders, makeUploadedWebpage } from '../../test/uploads.ts';
import { buildUploadBody, sendUpload, wasAlreadyArchived } from './upload-request.ts';
import type { UploadRequest, UploadWebpageRequest } from './upload-request.ts';

/** A scriptable XMLHttpRequest: records what is sent, answers when the test says so. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders: Record<string, string> = {};
  /** The headers this origin may read (like CORS: all of them unless a test says otherwise). */
  exposed: ReadonlySet<string> | 'all' = 'all';
  /** Hidden headers the app asked for: a browser logs "Refused to get unsafe header" for each. */
  refused: string[] = [];
  aborted = false;
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    new URL(url); // like a browser: an invalid URL throws
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  private readable(name: string): boolean {
    return this.exposed === 'all' || this.exposed.has(name.toLowerCase());
  }
  getResponseHeader(name: string): string | null {
    if (!this.readable(name)) {
      this.refused.push(name);
      return null;
    }
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  getAllResponseHeaders(): string {
    return Object.entries(this.responseHeaders)
      .filter(([name]) => this.readable(name))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
  }
  respond(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.statusText = status === 200 ? 'OK' : '';
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

function lastXhr(): FakeXhr {
  if (!FakeXhr.last) throw new Error('no request was sent');
  return FakeXhr.last;
}

beforeAll(installBlobReaders);
beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function request(overrides: Partial<UploadRequest> = {}): UploadRequest {
  return {
    connection: { baseUrl: 'http://archive.test:3000', token: 'secret' },
    content: new Blob(['PGh0bWw+']),
    fields: { ext: 'html', title: 'A "quoted" title', link: 'https://example.com/a' },
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function sentJson(): Promise<UploadWebpageRequest> {
  const body = lastXhr().body;
  if (!(body instanceof Blob)) throw new Error('the body is not a Blob');
  return JSON.parse(await body.text()) as UploadWebpageRequest;
}

describe('sendUpload', () => {
  it('posts the JSON body with the token to the archive', async () => {
    const result = sendUpload(request());
    expect(lastXhr().method).toBe('POST');
    expect(lastXhr().url).toBe('http://archive.test:3000/public/api/v1/webpages');
    expect(lastXhr().headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer secret',
    });
    expect(await sentJson()).toEqual({
      content: 'PGh0bWw+',
      ext: 'html',
      title: 'A "quoted" title',
      link: 'https://example.com/a',
    });
    const webpage = makeUploadedWebpage();
    lastXhr().respond(200, { success: true, data: webpage });
    await expect(result).resolves.toEqual({ webpage, alreadyArchived: false });
  });

  it('sends no Authorization header without a token', () => {
    void sendUpload(request({ connection: { baseUrl: 'http://a.test', token: '' } })).catch(
      () => {},
    );
    expect(lastXhr().headers.authorization).toBeUndefined();
  });

  it('reports upload progress in bytes and every answer status', async () => {
    const onProgress = vi.fn();
    const onStatus = vi.fn();
    const result = sendUpload(request({ onProgress, onStatus }));
    lastXhr().upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true });
    lastXhr().upload.onprogress?.({ loaded: 70, total: 0, lengthComputable: false });
    expect(onProgress).toHaveBeenNthCalledWith(1, 50, 200);
    // Without a computable length the body size is the total.
    expect(onProgress).toHaveBeenNthCalledWith(2, 70, (lastXhr().body as Blob).size);
    lastXhr().respond(401, { message: 'Invalid token' });
    await expect(result).rejects.toMatchObject({ kind: 'http', status: 401 });
    expect(onStatus).toHaveBeenCalledWith(401);
  });

  it('turns the E0001 envelope into an ApiError with the code', async () => {
    const result = sendUpload(request());
    lastXhr().respond(200, {
      success: false,
      error: 'E0001',
      message: 'parse error: parse file failed',
    });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'E0001', message: 'parse error: parse file failed' });
  });

  it('keeps the status and message of HTTP errors, JSON or text', async () => {
    const tooLarge = sendUpload(request());
    lastXhr().respond(413, { success: false, error: 'payload_too_large', message: 'Too big' });
    await expect(tooLarge).rejects.toMatchObject({
      kind: 'http',
      status: 413,
      code: 'payload_too_large',
      message: 'Too big',
    });
    const badRequest = sendUpload(request());
    lastXhr().respond(400, 'Bad Request');
    await expect(badRequest).rejects.toMatchObject({ status: 400, message: 'Bad Request' });
  });

  it('reports a network failure as offline', async () => {
    const result = sendUpload(request());
    lastXhr().onerror?.();
    await expect(result).rejects.toMatchObject({ kind: 'offline' });
  });

  it('reports an answer that is not the envelope as invalid-response', async () => {
    const html = sendUpload(request());
    lastXhr().respond(200, '<!doctype html><title>Web UI</title>');
    await expect(html).rejects.toMatchObject({ kind: 'invalid-response' });
    const json = sendUpload(request());
    lastXhr().respond(200, { id: 'x' });
    await expect(json).rejects.toMatchObject({ kind: 'invalid-response' });
  });

  it('aborts the request when the signal fires', async () => {
    const controller = new AbortController();
    const result = sendUpload(request({ signal: controller.signal }));
    controller.abort();
    expect(lastXhr().aborted).toBe(true);
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not send when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sendUpload(request({ signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(FakeXhr.last).toBeNull();
  });

  it('fails as offline with a clear message when the base URL is not a URL', async () => {
    const result = sendUpload(request({ connection: { baseUrl: 'http://[nope', token: '' } }));
    await expect(result).rejects.toMatchObject({
      kind: 'offline',
      message: 'The archive address "http://[nope" is not a valid URL',
    });
  });

  it('says when the server returned a record that existed before the request', async () => {
    const result = sendUpload(request());
    lastXhr().respond(200, {
      success: true,
      data: makeUploadedWebpage({ firstAddTime: Date.now() - 3_600_000 }),
    });
    await expect(result).resolves.toMatchObject({ alreadyArchived: true });
  });

  it("reads the server's Date when it is exposed", async () => {
    // The server's clock is an hour behind: a record added "now" on it is new.
    const serverNow = Date.now() - 3_600_000;
    const result = sendUpload(request());
    lastXhr().respond(200, webpageEnvelope(serverNow), { date: new Date(serverNow).toUTCString() });
    await expect(result).resolves.toMatchObject({ alreadyArchived: false });
  });

  it('never asks for a Date header that another origin does not expose', async () => {
    const serverNow = Date.now() - 3_600_000;
    const result = sendUpload(request());
    const xhr = lastXhr();
    xhr.exposed = new Set(['content-type']);
    xhr.respond(200, webpageEnvelope(serverNow), {
      'content-type': 'application/json',
      date: new Date(serverNow).toUTCString(),
    });
    // Without the server's clock, the client's decides (an hour ago on it: already archived).
    await expect(result).resolves.toMatchObject({ alreadyArchived: true });
    expect(xhr.refused).toEqual([]);
  });
});

function webpageEnvelope(firstAddTime: number) {
  return { success: true, data: makeUploadedWebpage({ firstAddTime }) };
}

describe('wasAlreadyArchived', () => {
  const sentAt = 1_700_000_000_000;

  it('compares with the request start on the client clock without a Date header', () => {
    const timing = { sentAt, answeredAt: sentAt + 500, serverDate: null };
    expect(wasAlreadyArchived(sentAt + 200, timing)).toBe(false);
    expect(wasAlreadyArchived(sentAt - 900, timing)).toBe(false); // within the slack
    expect(wasAlreadyArchived(sentAt - 60_000, timing)).toBe(true);
  });

  it('keeps the precision of the client clock when the Date header agrees with it', () => {
    // Whole seconds: the header is up to a second behind the client's clock.
    const timing = { sentAt, answeredAt: sentAt + 300, serverDate: sentAt - 700 };
    expect(wasAlreadyArchived(sentAt - 1_500, timing)).toBe(true); // uploaded 1.5 s before
    expect(wasAlreadyArchived(sentAt + 100, timing)).toBe(false);
  });

  it("uses the server's clock when its Date header shows the clocks disagree", () => {
    // The server's clock is an hour behind the client's.
    const serverNow = sentAt - 3_600_000;
    const timing = { sentAt, answeredAt: sentAt + 2_000, serverDate: serverNow };
    expect(wasAlreadyArchived(serverNow - 500, timing)).toBe(false); // new, stored during the request
    expect(wasAlreadyArchived(serverNow - 10_000, timing)).toBe(true);
  });
});

describe('buildUploadBody', () => {
  it('is valid JSON with only the fields given', async () => {
    const body = buildUploadBody(new Blob(['AAEC']), { ext: 'mhtml' });
    expect(body.type).toBe('application/json');
    expect(JSON.parse(await body.text())).toEqual({ content: 'AAEC', ext: 'mhtml' });
  });
});
