import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import {
  deferred,
  installBlobReaders,
  SAMPLE_HTML,
  SAMPLE_MHTML,
  makeUploadedWebpage,
} from '../../test/uploads.ts';
import type { Deferred } from '../../test/uploads.ts';
import { describeUploadError, FileReadError, linkError } from './upload-errors.ts';
import { createUploadQueue } from './upload-queue.ts';
import type { EncodeOptions, SendOptions, UploadQueueDeps } from './upload-queue.ts';
import type { UploadResult } from './upload-request.ts';
import { announceChanges, createAnnouncer } from './upload-status.ts';

beforeAll(installBlobReaders);

interface PendingEncode extends EncodeOptions {
  file: File;
  result: Deferred<Blob>;
}
interface PendingSend extends SendOptions {
  result: Deferred<UploadResult>;
}

function abortable<T>(signal: AbortSignal, result: Deferred<T>): Promise<T> {
  signal.addEventListener('abort', () => result.reject(new DOMException('Aborted', 'AbortError')));
  return result.promise;
}

/** A queue whose encoder and transport wait for the test to settle them. */
function setup(overrides: Partial<UploadQueueDeps> = {}) {
  const encodes: PendingEncode[] = [];
  const sends: PendingSend[] = [];
  const deps = {
    readHead: vi.fn(async (file: File) => new Uint8Array(await file.arrayBuffer())),
    encode: vi.fn((file: File, options: EncodeOptions) => {
      const result = deferred<Blob>();
      encodes.push({ file, result, ...options });
      return abortable(options.signal, result);
    }),
    send: vi.fn((options: SendOptions) => {
      const result = deferred<UploadResult>();
      sends.push({ result, ...options });
      return abortable(options.signal, result);
    }),
    ...overrides,
  };
  const queue = createUploadQueue(deps);
  const statuses = () =>
    Object.fromEntries(queue.getSnapshot().map((item) => [item.file.name, item.status]));
  const item = (name: string) => {
    const found = queue.getSnapshot().find((candidate) => candidate.file.name === name);
    if (!found) throw new Error(`no item ${name}`);
    return found;
  };
  const encodeOf = (name: string) => {
    const found = encodes.findLast((pending) => pending.file.name === name);
    if (!found) throw new Error(`${name} was not encoded`);
    return found;
  };
  return { queue, deps, encodes, sends, statuses, item, encodeOf };
}

/**
 * Resolves once every promise continuation already queued has run (a task comes after all of
 * them): the queue's own work is promises on the test's deferreds, never timers.
 */
const settledPromises = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const html = (name: string) => new File([SAMPLE_HTML], name, { type: 'text/html' });
const added = (): UploadResult => ({ webpage: makeUploadedWebpage(), alreadyArchived: false });

describe('upload queue', () => {
  it('checks each file, then encodes and sends two at a time, in order', async () => {
    const { queue, statuses, encodeOf, sends } = setup();
    queue.enqueue([html('a.html'), html('b.html'), html('c.html')]);
    expect(statuses()).toEqual({
      'a.html': 'checking',
      'b.html': 'checking',
      'c.html': 'checking',
    });

    await vi.waitFor(() =>
      expect(statuses()).toEqual({
        'a.html': 'encoding',
        'b.html': 'encoding',
        'c.html': 'queued',
      }),
    );
    encodeOf('a.html').result.resolve(new Blob(['QUFB']));
    await vi.waitFor(() => expect(statuses()['a.html']).toBe('uploading'));
    // a still holds its slot while it uploads.
    expect(statuses()['c.html']).toBe('queued');

    sends[0]?.result.resolve(added());
    await vi.waitFor(() =>
      expect(statuses()).toEqual({ 'a.html': 'added', 'b.html': 'encoding', 'c.html': 'encoding' }),
    );
  });

  it('tracks encoding and upload progress, and sends the fields', async () => {
    const { queue, item, encodeOf, sends } = setup();
    const [id] = queue.enqueue([html('a.html')]);
    queue.edit(id!, { title: '  My title ', link: ' https://example.com/x ' });
    await vi.waitFor(() => expect(item('a.html').status).toBe('encoding'));
    encodeOf('a.html').onProgress(0.5);
    expect(item('a.html').progress).toBe(0.5);

    const content = new Blob(['QUFB']);
    encodeOf('a.html').result.resolve(content);
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    expect(item('a.html')).toMatchObject({ status: 'uploading', progress: 0 });
    expect(sends[0]?.content).toBe(content);
    expect(sends[0]?.fields).toEqual({
      ext: 'html',
      title: 'My title',
      link: 'https://example.com/x',
    });
    sends[0]?.onProgress(0.25);
    expect(item('a.html').progress).toBe(0.25);

    const webpage = makeUploadedWebpage({ id: 'b'.repeat(64) });
    sends[0]?.result.resolve({ webpage, alreadyArchived: false });
    await vi.waitFor(() => expect(item('a.html').status).toBe('added'));
    expect(item('a.html').webpage).toBe(webpage);
  });

  it('leaves empty fields out of the request', async () => {
    const { queue, encodeOf, sends } = setup();
    queue.enqueue([html('a.html')]);
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]?.fields).toEqual({ ext: 'html' });
  });

  it('marks a file whose bytes were already archived', async () => {
    const { queue, item, encodeOf, sends } = setup();
    queue.enqueue([html('a.html')]);
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    sends[0]?.result.resolve({ webpage: makeUploadedWebpage(), alreadyArchived: true });
    await vi.waitFor(() => expect(item('a.html').status).toBe('existing'));
  });

  it('knows the same bytes sent twice in a session are already archived', async () => {
    const { queue, statuses, encodeOf, sends } = setup();
    queue.enqueue([html('a.html'), html('copy of a.html')]);
    await vi.waitFor(() => encodeOf('copy of a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    encodeOf('copy of a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(2));
    // The clocks cannot tell: both answers look new.
    const webpage = makeUploadedWebpage({ id: 'd'.repeat(64) });
    sends[1]?.result.resolve({ webpage, alreadyArchived: false });
    await vi.waitFor(() => expect(statuses()['copy of a.html']).toBe('added'));
    sends[0]?.result.resolve({ webpage, alreadyArchived: false });
    await vi.waitFor(() => expect(statuses()['a.html']).toBe('existing'));
  });

  it('fails with a reason, and a retry sends again without encoding again', async () => {
    const { queue, deps, item, encodeOf, sends } = setup();
    const [id] = queue.enqueue([new File([SAMPLE_MHTML], 'a.mhtml')]);
    await vi.waitFor(() => encodeOf('a.mhtml'));
    encodeOf('a.mhtml').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    sends[0]?.result.reject(new ApiError({ kind: 'parse', code: 'E0001', message: 'parse error' }));
    await vi.waitFor(() => expect(item('a.mhtml').status).toBe('failed'));
    expect(item('a.mhtml').error).toBe('Could not be read as MHTML');

    queue.retry(id!);
    expect(item('a.mhtml')).toMatchObject({ status: 'uploading', error: null });
    await vi.waitFor(() => expect(sends).toHaveLength(2));
    expect(deps.encode).toHaveBeenCalledTimes(1);
    sends[1]?.result.resolve(added());
    await vi.waitFor(() => expect(item('a.mhtml').status).toBe('added'));
  });

  it('fails with "Could not read the file" when encoding fails, and retries by encoding', async () => {
    const { queue, deps, item, encodeOf } = setup();
    const [id] = queue.enqueue([html('a.html')]);
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.reject(new Error('NotReadableError'));
    await vi.waitFor(() => expect(item('a.html').status).toBe('failed'));
    expect(item('a.html').error).toBe('Could not read the file: NotReadableError');
    queue.retry(id!);
    expect(item('a.html').status).toBe('encoding');
    expect(deps.encode).toHaveBeenCalledTimes(2);
  });

  it('fails when the first bytes cannot be read, and checks again on retry', async () => {
    const readHead = vi
      .fn<UploadQueueDeps['readHead']>()
      .mockRejectedValueOnce(new Error('gone'))
      .mockResolvedValue(new TextEncoder().encode(SAMPLE_HTML));
    const { queue, item } = setup({ readHead });
    const [id] = queue.enqueue([html('a.html')]);
    await vi.waitFor(() => expect(item('a.html').status).toBe('failed'));
    expect(item('a.html').error).toBe('Could not read the file: gone');
    queue.retry(id!);
    await vi.waitFor(() => expect(item('a.html').status).toBe('encoding'));
    expect(readHead).toHaveBeenCalledTimes(2);
  });

  it('cancels a queued, an encoding and an uploading file, and starts the next ones', async () => {
    const { queue, statuses, encodeOf, sends } = setup();
    const ids = queue.enqueue(['a', 'b', 'c', 'd'].map((name) => html(`${name}.html`)));
    await vi.waitFor(() => expect(statuses()['b.html']).toBe('encoding'));

    queue.cancel(ids[2]!); // c, queued
    expect(statuses()['c.html']).toBe('canceled');

    const encodingA = encodeOf('a.html');
    queue.cancel(ids[0]!); // a, encoding
    expect(encodingA.signal.aborted).toBe(true);
    expect(statuses()).toEqual({
      'a.html': 'canceled',
      'b.html': 'encoding',
      'c.html': 'canceled',
      'd.html': 'encoding',
    });

    encodeOf('b.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    queue.cancel(ids[1]!); // b, uploading
    expect(sends[0]?.signal.aborted).toBe(true);
    expect(statuses()['b.html']).toBe('canceled');

    // The aborted work settling later changes nothing.
    await Promise.resolve();
    expect(statuses()['a.html']).toBe('canceled');

    queue.retry(ids[0]!);
    expect(statuses()['a.html']).toBe('encoding');
  });

  it('cancels a file while its format is checked', async () => {
    const head = deferred<Uint8Array>();
    const { queue, statuses, deps } = setup({ readHead: vi.fn(() => head.promise) });
    const [id] = queue.enqueue([html('a.html')]);
    await vi.waitFor(() => expect(deps.readHead).toHaveBeenCalled());
    queue.cancel(id!);
    // The check ends after the cancel; what it found changes nothing.
    head.resolve(new TextEncoder().encode(SAMPLE_HTML));
    await settledPromises();
    expect(statuses()['a.html']).toBe('canceled');
    expect(deps.encode).not.toHaveBeenCalled();
    queue.retry(id!);
    expect(statuses()['a.html']).toBe('encoding');
  });

  it('removes a running file and frees its slot', async () => {
    const { queue, statuses, encodeOf } = setup();
    const ids = queue.enqueue([html('a.html'), html('b.html'), html('c.html')]);
    await vi.waitFor(() => expect(statuses()['c.html']).toBe('queued'));
    const encodingA = encodeOf('a.html');
    queue.remove(ids[0]!);
    expect(encodingA.signal.aborted).toBe(true);
    expect(statuses()).toEqual({ 'b.html': 'encoding', 'c.html': 'encoding' });
  });

  it('holds a file whose format does not match until the user picks one', async () => {
    const { queue, item, encodeOf, sends } = setup();
    const [id] = queue.enqueue([new File([SAMPLE_MHTML], 'saved.html')]);
    await vi.waitFor(() => expect(item('saved.html').status).toBe('blocked'));
    expect(item('saved.html').check).toMatchObject({
      status: 'mismatch',
      message: 'This file looks like MHTML but is named .html',
    });
    expect(item('saved.html').ext).toBeNull();

    queue.chooseFormat(id!, 'mhtml');
    expect(item('saved.html')).toMatchObject({ status: 'encoding', ext: 'mhtml' });
    encodeOf('saved.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]?.fields.ext).toBe('mhtml');
  });

  it('blocks empty and unsupported files without starting them', async () => {
    const { queue, item, deps } = setup();
    queue.enqueue([new File([], 'empty.html'), new File(['%PDF-1.4\u0000'], 'doc.pdf')]);
    await vi.waitFor(() => expect(item('doc.pdf').status).toBe('blocked'));
    expect(item('empty.html')).toMatchObject({ status: 'blocked', check: { status: 'empty' } });
    expect(item('doc.pdf').check).toMatchObject({ status: 'unsupported', detected: null });
    expect(deps.encode).not.toHaveBeenCalled();
  });

  it('does not start a file with an invalid link or while its fields are edited', async () => {
    const { queue, item } = setup();
    const [id] = queue.enqueue([html('a.html')]);
    queue.edit(id!, { link: 'example.com/page' });
    await vi.waitFor(() => expect(item('a.html').status).toBe('queued'));
    await settledPromises();
    expect(item('a.html').status).toBe('queued');

    queue.setEditing(id!, true);
    queue.edit(id!, { link: 'https://example.com/page' });
    expect(item('a.html').status).toBe('queued');
    queue.setEditing(id!, false);
    expect(item('a.html').status).toBe('encoding');
    // Fields are frozen once a file has started.
    queue.edit(id!, { title: 'late' });
    expect(item('a.html').title).toBe('');
  });

  it('clears finished files and keeps the others', async () => {
    const { queue, statuses, encodeOf, sends } = setup({ concurrency: 1 });
    const ids = queue.enqueue([html('a.html'), html('b.html'), html('c.html'), html('d.html')]);
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    sends[0]?.result.resolve(added());
    await vi.waitFor(() => encodeOf('b.html'));
    encodeOf('b.html').result.reject(new FileReadError('unreadable'));
    await vi.waitFor(() => expect(statuses()['c.html']).toBe('encoding'));
    queue.cancel(ids[2]!);
    queue.clearFinished();
    expect(statuses()).toEqual({ 'b.html': 'failed', 'd.html': 'encoding' });
  });

  it('retries every failed file at once', async () => {
    const { queue, statuses, encodeOf } = setup();
    queue.enqueue([html('a.html'), html('b.html')]);
    await vi.waitFor(() => encodeOf('b.html'));
    encodeOf('a.html').result.reject(new Error('x'));
    encodeOf('b.html').result.reject(new Error('y'));
    await vi.waitFor(() => expect(statuses()).toEqual({ 'a.html': 'failed', 'b.html': 'failed' }));
    queue.retryFailed();
    expect(statuses()).toEqual({ 'a.html': 'encoding', 'b.html': 'encoding' });
  });

  it('tells listeners about each upload, and a late listener about missed ones', async () => {
    const { queue, encodeOf, sends } = setup();
    queue.enqueue([html('a.html')]);
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    sends[0]?.result.resolve(added());
    await vi.waitFor(() => expect(queue.getSnapshot()[0]?.status).toBe('added'));

    const late = vi.fn();
    const unsubscribe = queue.onUploaded(late);
    expect(late).toHaveBeenCalledTimes(1);
    const another = vi.fn();
    queue.onUploaded(another);
    expect(another).not.toHaveBeenCalled(); // reported once only

    queue.enqueue([html('b.html')]);
    await vi.waitFor(() => encodeOf('b.html'));
    encodeOf('b.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(2));
    unsubscribe();
    sends[1]?.result.resolve(added());
    await vi.waitFor(() => expect(another).toHaveBeenCalledTimes(1));
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('notifies subscribers with a new snapshot on change', () => {
    const { queue } = setup();
    const listener = vi.fn();
    queue.subscribe(listener);
    const before = queue.getSnapshot();
    queue.enqueue([html('a.html')]);
    expect(listener).toHaveBeenCalled();
    expect(queue.getSnapshot()).not.toBe(before);
    expect(queue.enqueue([])).toEqual([]);
  });
});

describe('describeUploadError', () => {
  const http = (status: number, message = 'msg') => new ApiError({ kind: 'http', status, message });

  it('names each failure the way the user can act on it', () => {
    const e0001 = new ApiError({ kind: 'parse', code: 'E0001', message: 'parse error' });
    expect(describeUploadError(e0001, 'mhtml')).toBe('Could not be read as MHTML');
    expect(describeUploadError(e0001, 'webarchive')).toBe('Could not be read as Safari webarchive');
    expect(describeUploadError(e0001, 'html')).toBe('Could not be read as HTML');
    const cut = new ApiError({
      kind: 'parse',
      code: 'E0001',
      message: 'parse error: the file is truncated: its closing MIME boundary is missing',
    });
    expect(describeUploadError(cut, 'mhtml')).toBe(
      'Could not be read as MHTML: the file is truncated: its closing MIME boundary is missing',
    );
    expect(describeUploadError(http(413), 'html')).toBe('Too large for the server');
    expect(describeUploadError(http(401), 'html')).toBe('Token refused — check Settings');
    expect(describeUploadError(http(400, 'link is invalid'), 'html')).toBe('link is invalid');
    expect(describeUploadError(http(500, 'boom'), 'html')).toBe('Server error (500): boom');
    const offline = new ApiError({ kind: 'offline', message: 'Server unreachable' });
    expect(describeUploadError(offline, 'html')).toBe('Server unreachable');
    const foreign = new ApiError({ kind: 'invalid-response', message: 'not the envelope' });
    expect(describeUploadError(foreign, 'html')).toBe(
      'Unexpected answer from the server: not the envelope',
    );
    expect(describeUploadError(new FileReadError('denied'), 'html')).toBe(
      'Could not read the file: denied',
    );
  });
});

describe('linkError', () => {
  it('accepts empty and absolute http(s) links only', () => {
    expect(linkError('')).toBeNull();
    expect(linkError('   ')).toBeNull();
    expect(linkError('https://example.com/a?b#c')).toBeNull();
    expect(linkError('http://localhost:8080')).toBeNull();
    expect(linkError('example.com')).toMatch(/absolute http\(s\) URL/);
    expect(linkError('ftp://example.com')).toMatch(/absolute http\(s\) URL/);
    expect(linkError('javascript:alert(1)')).toMatch(/absolute http\(s\) URL/);
    expect(linkError(`https://e.com/${'a'.repeat(9000)}`)).toBe('The link is too long');
  });
});

describe('upload queue: truncated files', () => {
  const readTail = vi.fn(
    async (file: File) =>
      new Uint8Array(await file.slice(Math.max(0, file.size - 4096)).arrayBuffer()),
  );

  it('holds a file whose end shows it was cut short, with no fix, and never sends it', async () => {
    const { queue, item, deps } = setup({ readTail });
    const cut = SAMPLE_MHTML.slice(0, SAMPLE_MHTML.indexOf('--b--'));
    queue.enqueue([new File([cut], 'cut.mhtml'), new File([SAMPLE_MHTML], 'whole.mhtml')]);
    await vi.waitFor(() => expect(item('cut.mhtml').status).toBe('blocked'));
    expect(item('cut.mhtml').check).toEqual({
      status: 'truncated',
      ext: 'mhtml',
      message: 'This MHTML file is truncated: its closing MIME boundary is missing',
    });
    await vi.waitFor(() => expect(item('whole.mhtml').status).toBe('encoding'));
    expect(deps.encode).toHaveBeenCalledTimes(1);
    expect(deps.encode).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'whole.mhtml' }),
      expect.anything(),
    );
  });
});

describe('announcements', () => {
  it('announces new files and files that reached an end or need attention', async () => {
    const { queue, encodeOf, sends } = setup();
    const announcer = createAnnouncer(queue);
    queue.enqueue([html('a.html'), new File([], 'empty.html')]);
    expect(announcer.getSnapshot()).toBe('2 files added to the list');
    await vi.waitFor(() => expect(announcer.getSnapshot()).toBe('empty.html: The file is empty'));
    await vi.waitFor(() => encodeOf('a.html'));
    encodeOf('a.html').result.resolve(new Blob(['QQ==']));
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    expect(announcer.getSnapshot()).toBe('empty.html: The file is empty'); // progress is quiet
    sends[0]?.result.resolve(added());
    await vi.waitFor(() => expect(announcer.getSnapshot()).toBe('a.html: Added'));
  });

  it('says nothing when nothing worth saying changed', () => {
    expect(announceChanges([], [])).toBeNull();
  });
});
