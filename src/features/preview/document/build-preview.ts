// The whole worker job as one plain function: the original file as the server sent it → bytes →
// archive → sanitized document and its resources, ready to post to the main thread.
import {
  originalFileMaxBytes,
  readOriginalFile,
  type OriginalFile,
} from '../../../api/original-file.ts';
import { parseMhtml } from '../../../../shared/formats/mhtml.ts';
import { parseWebarchive } from '../../../../shared/formats/webarchive.ts';
import {
  archiveFromHtml,
  archiveFromMhtml,
  archiveFromWebarchive,
  type Archive,
} from './archive.ts';
import { PreviewDocumentBuilder, type BuildLimits } from './build-document.ts';
import {
  checkWebarchiveSize,
  isInputTooLarge,
  MAX_PREVIEW_INPUT_BYTES,
  TooComplexError,
} from './budgets.ts';
import { ResourceTable, tokenPattern, type BuiltResource } from './resources.ts';
import type { DocumentPart } from './sanitize.ts';

export type PreviewExt = 'html' | 'mhtml' | 'webarchive';

/** `partsBase`: for linked MHTML, where its parts' links live (`partLinksBase`). */
export function readArchive(ext: PreviewExt, bytes: Uint8Array, partsBase?: string): Archive {
  switch (ext) {
    case 'html':
      return archiveFromHtml(bytes);
    case 'mhtml':
      return archiveFromMhtml(parseMhtml(bytes), partsBase);
    case 'webarchive':
      checkWebarchiveSize(bytes);
      return archiveFromWebarchive(parseWebarchive(bytes));
  }
}

export interface PreviewBuild {
  /**
   * The sanitized document in its parts, in order: the document the frame loads, and a long page's
   * pieces (`split.ts`); resource N appears as `folio-res-<nonce>-N`.
   */
  parts: DocumentPart[];
  resources: BuiltResource[];
  nonce: string;
  /** Whether any of its documents has a declarative shadow root. */
  shadowRoots: boolean;
}

export function buildPreview(
  ext: PreviewExt,
  bytes: Uint8Array,
  options: {
    nonce?: string;
    limits?: BuildLimits;
    reservedNames: ReadonlySet<string>;
    /** Told a long page's first part, with the resources written so far, once it is written. */
    firstPart?: (html: string, resources: readonly BuiltResource[], nonce: string) => void;
    /** For linked MHTML: where its parts' links live (`partLinksBase`). */
    partsBase?: string;
  },
): PreviewBuild {
  const archive = readArchive(ext, bytes, options.partsBase);
  const resources = new ResourceTable(options.nonce, options.partsBase ?? null);
  const { firstPart } = options;
  const builder = new PreviewDocumentBuilder(
    archive,
    resources,
    options.reservedNames,
    options.limits,
    firstPart && ((html) => firstPart(html, resources.list.slice(), resources.nonce)),
  );
  return {
    parts: builder.build(),
    resources: resources.list,
    nonce: resources.nonce,
    shadowRoots: builder.shadowRoots > 0,
  };
}

/** A string cut at its tokens: `strings[0] + url(refs[0]) + strings[1] + …`. */
export interface PreviewTemplate {
  strings: string[];
  refs: number[];
}

/** A part of the document (see `DocumentPart`), its resources as tokens. */
export interface PreviewPart {
  into: string | null;
  template: PreviewTemplate;
}

/** Main thread → worker. */
export interface PreviewRequest {
  ext: PreviewExt;
  /** The original file as a Blob (posting one passes a handle: the bytes are read here). */
  file: OriginalFile;
  /** The member names of `document` in the app's browser (`document-members.ts`). */
  reservedNames: readonly string[];
}

/** Why a preview failed: the file cannot be read, or it is past the preview's bounds. */
export type PreviewFailure = 'unreadable' | 'too-complex';

/**
 * Worker → main thread, before the answer, for a long page only: its first part, to be shown while
 * the worker writes the rest. `resources` are the answer's first resources (the ones it uses).
 */
export interface PreviewFirstPart {
  first: PreviewTemplate;
  resources: PreviewResource[];
}

/** A resource of the document: bytes for a blob: URL, or the address of a part's link. */
export type PreviewResource = Blob | string;

/** Worker → main thread: the answer, and for a long page its first part before it. */
export type PreviewMessage = PreviewFirstPart | PreviewResponse;

/** Worker → main thread. */
export type PreviewResponse =
  | {
      ok: true;
      /** The document in its parts, in order: one unless the page is long (`split.ts`). */
      parts: PreviewPart[];
      /**
       * Resource N of the document: a typed Blob, or the address of a linked part. Blobs are made
       * here, in the worker: posting one passes a handle, so the main thread neither copies nor
       * stores the bytes, it only names them.
       */
      resources: PreviewResource[];
      /** For linked MHTML: where its parts' links live, which the document's CSP names. */
      partsBase?: string;
      /** Whether the document has declarative shadow roots (which may hold frames and links). */
      shadowRoots: boolean;
    }
  | { ok: false; failure: PreviewFailure; message: string };

export function toTemplate(text: string, nonce: string): PreviewTemplate {
  const pieces = text.split(tokenPattern(nonce));
  const strings: string[] = [];
  const refs: number[] = [];
  pieces.forEach((piece, index) => {
    if (index % 2 === 0) strings.push(piece);
    else refs.push(Number(piece));
  });
  return { strings, refs };
}

/** The message for a build. */
export function toResponse(build: PreviewBuild, partsBase?: string): PreviewResponse {
  return {
    ok: true,
    parts: build.parts.map(({ into, html }) => ({ into, template: toTemplate(html, build.nonce) })),
    shadowRoots: build.shadowRoots,
    resources: build.resources.map(toResource),
    ...(partsBase !== undefined && { partsBase }),
  };
}

function toResource(resource: BuiltResource): PreviewResource {
  if ('link' in resource) return resource.link;
  // The archive's bytes live in plain ArrayBuffers (never shared memory).
  return new Blob([resource.bytes as Uint8Array<ArrayBuffer>], { type: resource.type });
}

/** Tells a long page's first part as a message (see `PreviewFirstPart`). */
export type SendFirstPart = (message: PreviewFirstPart) => void;

/** What the worker does with a request (exported so it can run without a worker in tests). */
export async function handlePreviewRequest(
  request: PreviewRequest,
  sendFirstPart?: SendFirstPart,
): Promise<PreviewResponse> {
  let bytes: Uint8Array;
  try {
    if (isInputTooLarge(originalFileMaxBytes(request.file))) {
      throw new TooComplexError(`the file is larger than ${MAX_PREVIEW_INPUT_BYTES} bytes`);
    }
    bytes = await readOriginalFile(request.file);
  } catch (error) {
    return failed(error);
  }
  const { file } = request;
  const partsBase = file.encoding === 'linked-mhtml' ? file.partsBase : undefined;
  return previewResponse(request.ext, bytes, request.reservedNames, sendFirstPart, partsBase);
}

/** The worker's answer for a file's bytes (the synchronous part of `handlePreviewRequest`). */
export function previewResponse(
  ext: PreviewExt,
  bytes: Uint8Array,
  reservedNames: readonly string[],
  sendFirstPart?: SendFirstPart,
  partsBase?: string,
): PreviewResponse {
  // The input's size was bounded before its bytes were read (`handlePreviewRequest`).
  try {
    const build = buildPreview(ext, bytes, {
      reservedNames: new Set(reservedNames),
      ...(partsBase !== undefined && { partsBase }),
      ...(sendFirstPart && {
        firstPart: (html: string, resources: readonly BuiltResource[], nonce: string) =>
          sendFirstPart({ first: toTemplate(html, nonce), resources: resources.map(toResource) }),
      }),
    });
    return toResponse(build, partsBase);
  } catch (error) {
    return failed(error);
  }
}

function failed(error: unknown): PreviewResponse {
  const message = error instanceof Error ? error.message : String(error);
  // A RangeError is the engine running out of room (a string or array too long to make).
  const failure =
    error instanceof TooComplexError || error instanceof RangeError ? 'too-complex' : 'unreadable';
  return { ok: false, failure, message };
}
