// Turns the worker's answer into a document for the iframe: one blob: URL per resource Blob (made
// here: a blob: URL made in the worker would die with it), substituted for the tokens. The
// caller revokes the URLs when the preview goes away.
import type { PreviewResponse, PreviewTemplate } from '../document/build-preview.ts';

export interface MaterializedPreview {
  html: string;
  /** The blob: URLs the document uses; pass them to `revokeUrls` when done. */
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

export function materializePreview(
  response: Extract<PreviewResponse, { ok: true }>,
  createUrl: (blob: Blob) => string = (blob) => URL.createObjectURL(blob),
): MaterializedPreview {
  const urls = response.resources.map((blob) => createUrl(blob));
  return { html: fillTemplate(response.document, urls), urls };
}

const SLICE_MS = 8;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * `materializePreview` in slices of about half a frame: Chromium registers each blob: URL with a
 * round trip to the browser process (~1 ms), and a page can have hundreds of resources. When
 * `signal` aborts, the URLs made so far are revoked and the promise rejects.
 */
export async function materializePreviewInSlices(
  response: Extract<PreviewResponse, { ok: true }>,
  signal: AbortSignal,
  createUrl: (blob: Blob) => string = (blob) => URL.createObjectURL(blob),
  revoke: (url: string) => void = (url) => URL.revokeObjectURL(url),
): Promise<MaterializedPreview> {
  const urls: string[] = [];
  let sliceStart = performance.now();
  for (const blob of response.resources) {
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
  return { html: fillTemplate(response.document, urls), urls };
}

export function revokeUrls(
  urls: readonly string[],
  revoke: (url: string) => void = (url) => URL.revokeObjectURL(url),
): void {
  for (const url of urls) revoke(url);
}
