// Small archive builders for the preview's tests, without Node APIs (they run in the jsdom project).
// The server's richer builders live in test/support/archives.ts (Node only).
import { encodeBase64 } from '../../shared/formats/bytes.ts';
import type { OriginalFile } from '../api/original-file.ts';
import type { PlistDict, PlistValue } from '../../shared/formats/bplist.ts';
import { writeBplist } from '../../test/support/bplist-writer.ts';

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  // Copied into this realm's Uint8Array: under jsdom, TextEncoder's arrays come from another realm
  // and fail `instanceof Uint8Array` checks (the plist writer's).
  return new Uint8Array(encoder.encode(text));
}

/** A Blob's bytes (jsdom's Blob has no arrayBuffer()/text()). */
export function readBlob(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the blob'));
    reader.readAsArrayBuffer(blob);
  });
}

export async function readBlobText(blob: Blob): Promise<string> {
  return new TextDecoder().decode(await readBlob(blob));
}

/** A valid 1×1 PNG. */
export const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  ),
  (c) => c.charCodeAt(0),
);

export interface MhtmlPartSpec {
  type: string;
  location?: string;
  contentId?: string;
  body: string | Uint8Array;
  charset?: string;
  /** More header lines, as written (`Name: value`). */
  headers?: readonly string[];
}

/**
 * An MHTML file shaped like Chromium's: the first part is the document; every body is base64 so
 * any bytes survive.
 */
export function makeMhtml(parts: readonly MhtmlPartSpec[], snapshot?: string): Uint8Array {
  const boundary = '----MultipartBoundary--test----';
  const lines = ['From: <Saved by Blink>'];
  if (snapshot) lines.push(`Snapshot-Content-Location: ${snapshot}`);
  lines.push(
    'MIME-Version: 1.0',
    'Content-Type: multipart/related;',
    '\ttype="text/html";',
    `\tboundary="${boundary}"`,
    '',
    '',
  );
  let text = lines.join('\r\n');
  for (const part of parts) {
    const body = typeof part.body === 'string' ? utf8(part.body) : part.body;
    const headers = [
      `Content-Type: ${part.type}${part.charset ? `; charset=${part.charset}` : ''}`,
    ];
    if (part.contentId) headers.push(`Content-ID: <${part.contentId}>`);
    headers.push('Content-Transfer-Encoding: base64');
    if (part.location) headers.push(`Content-Location: ${part.location}`);
    headers.push(...(part.headers ?? []));
    const encoded = (encodeBase64(body).match(/.{1,76}/g) ?? []).join('\r\n');
    text += `--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n${encoded}\r\n\r\n`;
  }
  text += `--${boundary}--\r\n`;
  return utf8(text);
}

export interface WebResourceSpec {
  url: string;
  mimeType: string;
  data: string | Uint8Array;
  textEncoding?: string;
}

export interface WebarchiveSpec {
  html: string;
  url: string;
  subresources?: WebResourceSpec[];
  subframes?: WebarchiveSpec[];
}

function resourceDict(resource: WebResourceSpec): PlistDict {
  const dict: PlistDict = new Map<string, PlistValue>([
    ['WebResourceData', typeof resource.data === 'string' ? utf8(resource.data) : resource.data],
    ['WebResourceMIMEType', resource.mimeType],
    ['WebResourceURL', resource.url],
  ]);
  if (resource.textEncoding) dict.set('WebResourceTextEncodingName', resource.textEncoding);
  return dict;
}

function archiveDict(spec: WebarchiveSpec): PlistDict {
  const dict: PlistDict = new Map<string, PlistValue>([
    [
      'WebMainResource',
      resourceDict({
        url: spec.url,
        mimeType: 'text/html',
        data: spec.html,
        textEncoding: 'UTF-8',
      }),
    ],
  ]);
  if (spec.subresources?.length) dict.set('WebSubresources', spec.subresources.map(resourceDict));
  if (spec.subframes?.length) dict.set('WebSubframeArchives', spec.subframes.map(archiveDict));
  return dict;
}

/** A binary-plist Safari webarchive. */
export function makeWebarchive(spec: WebarchiveSpec): Uint8Array {
  return writeBplist(archiveDict(spec));
}

/**
 * An original file as Folio's server sends it (the bytes), for the preview's worker. Made by a
 * `Response`, whose Blobs can be read (jsdom's own cannot).
 */
export async function originalFile(bytes: Uint8Array): Promise<OriginalFile> {
  const blob = await new Response(bytes as Uint8Array<ArrayBuffer>).blob();
  return { encoding: 'bytes', blob };
}
