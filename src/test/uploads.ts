// Helpers for the upload feature's tests (jsdom). Not imported by application code.
import type { Webpage } from '../features/upload/upload-request.ts';

function readWith<T>(blob: Blob, read: (reader: FileReader) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as T);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    read(reader);
  });
}

/**
 * jsdom's Blob has no `arrayBuffer()` or `text()` (browsers and workers do). Adds them on top of
 * jsdom's FileReader so the code under test runs unchanged.
 */
export function installBlobReaders(): void {
  const proto = Blob.prototype as Partial<Pick<Blob, 'arrayBuffer' | 'text'>>;
  if (!proto.arrayBuffer) {
    proto.arrayBuffer = function (this: Blob) {
      return readWith<ArrayBuffer>(this, (reader) => reader.readAsArrayBuffer(this));
    };
  }
  if (!proto.text) {
    proto.text = function (this: Blob) {
      return readWith<string>(this, (reader) => reader.readAsText(this));
    };
  }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A webpage record as the server returns it. */
export function makeUploadedWebpage(
  overrides: { id?: string; firstAddTime?: number; title?: string } = {},
): Webpage {
  return {
    id: overrides.id ?? 'a'.repeat(64),
    title: overrides.title ?? 'Saved page',
    excerpt: '',
    firstAddTime: overrides.firstAddTime ?? Date.now(),
    createTime: Date.now(),
    liked: false,
    read: false,
    size: 10,
    ext: 'html',
    highlights: [],
    labels: [],
  };
}

export const SAMPLE_HTML =
  '<!doctype html><html><head><title>T</title></head><body>x</body></html>';
export const SAMPLE_MHTML = [
  'From: <Saved by Blink>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/related; type="text/html"; boundary="b"',
  '',
  '--b',
  'Content-Type: text/html',
  '',
  '<html></html>',
  '--b--',
  '',
].join('\r\n');
