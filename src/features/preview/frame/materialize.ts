// Turns the worker's answer into a document for the iframe: one blob: URL per resource Blob (made
// here: a blob: URL made in the worker would die with it), substituted for the tokens. The
// caller revokes the URLs when the preview goes away.
import type {
  PreviewPart,
  PreviewResource,
  PreviewResponse,
  PreviewTemplate,
} from '../document/build-preview.ts';

/**
 * The URL of a resource: a new blob: URL for bytes, the address itself for a linked part (which
 * `revokeUrls` passes over: revoking what is not a blob: URL does nothing).
 */
export function resourceUrl(resource: PreviewResource): string {
  return typeof resource === 'string' ? resource : URL.createObjectURL(resource);
}

/** A piece of a long page, for the frame's container marked `data-folio-part="<into>"`. */
export interface PreviewPiece {
  into: string;
  html: string;
}

export interface MaterializedPreview {
  /** The document the frame loads. */
  html: string;
  /** A long page's pieces, appended in order once the frame has loaded (none for most pages). */
  pieces: PreviewPiece[];
  /** The document whole, pieces included (for reader mode); `html` when there are none. */
  whole: string;
  /** The URLs the document uses (blob: URLs, and links); pass them to `revokeUrls` when done. */
  urls: string[];
}

export function fillTemplate(template: PreviewTemplate, urls: readonly string[]): string {
  const { strings, refs } = template;
  let out = strings[0] ?? '';
  for (let index = 0; index < refs.length; index++) {
    out += (urls[refs[index]!] ?? '') + (strings[index + 1] ?? '');
  }
  return out;
}

function fillParts(parts: readonly PreviewPart[], urls: string[]): MaterializedPreview {
  const loaded: string[] = [];
  const pieces: PreviewPiece[] = [];
  const whole: string[] = [];
  for (const { into, template } of parts) {
    const html = fillTemplate(template, urls);
    whole.push(html);
    if (into === null) loaded.push(html);
    else pieces.push({ into, html });
  }
  const html = loaded.join('');
  return { html, pieces, whole: pieces.length === 0 ? html : whole.join(''), urls };
}

export function materializePreview(
  response: Extract<PreviewResponse, { ok: true }>,
  createUrl: (resource: PreviewResource) => string = resourceUrl,
): MaterializedPreview {
  const urls = response.resources.map((blob) => createUrl(blob));
  return fillParts(response.parts, urls);
}

const SLICE_MS = 8;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * `materializePreview` in slices of about half a frame: Chromium registers each blob: URL with a
 * round trip to the browser process (~1 ms), and a page can have hundreds of resources. When
 * `signal` aborts, the URLs made here are revoked and the promise rejects. `made` are URLs made
 * before for the first resources (a long page's first part): they are used, not made again.
 */
export async function materializePreviewInSlices(
  response: Extract<PreviewResponse, { ok: true }>,
  signal: AbortSignal,
  createUrl: (resource: PreviewResource) => string = resourceUrl,
  revoke: (url: string) => void = (url) => URL.revokeObjectURL(url),
  made: readonly string[] = [],
): Promise<MaterializedPreview> {
  const urls: string[] = [];
  let sliceStart = performance.now();
  for (const blob of response.resources.slice(made.length)) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTask();
      sliceStart = performance.now();
    }
    if (signal.aborted) {
      revokeUrls(urls, revoke);
      throw signal.reason;
    }
    urls.push(createUrl(blob));
  }
  return fillParts(response.parts, [...made, ...urls]);
}

export function revokeUrls(
  urls: readonly string[],
  revoke: (url: string) => void = (url) => URL.revokeObjectURL(url),
): void {
  for (const url of urls) revoke(url);
}
