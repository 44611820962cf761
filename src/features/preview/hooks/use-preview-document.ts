// Builds the preview document for an archive's original file in the worker, makes the blob: URLs of its
// resources and revokes them when the input changes or the component goes away.
import { useEffect, useState } from 'react';

import type { OriginalFile } from '../../../api/original-file.ts';
import type {
  PreviewExt,
  PreviewFailure,
  PreviewFirstPart,
  PreviewRequest,
  PreviewResponse,
} from '../document/build-preview.ts';
import { thisReservedMemberNames } from '../document/document-members.ts';
import {
  fillTemplate,
  materializePreviewInSlices,
  resourceUrl,
  revokeUrls,
  type MaterializedPreview,
  type PreviewPiece,
} from '../frame/materialize.ts';
import { runPreviewWorker, type OnFirstPart } from '../frame/run-preview-worker.ts';
import { takePreloads } from '../../../api/preload-part-links.ts';
import { adoptPreviewBuild, notePreviewShown } from './build-ahead.ts';

/**
 * A preview ready to show: `html` for the frame, then a long page's `pieces` appended in order;
 * `whole` is the document with its pieces (for reader mode); `urls` are the blob: URLs of the
 * archive's resources that they use. For a long page, `html` comes first, alone: `pieces` and
 * `whole` are `null` while the worker writes the rest.
 */
export interface ReadyPreview {
  status: 'ready';
  html: string;
  pieces: readonly PreviewPiece[] | null;
  whole: string | null;
  shadowRoots: boolean;
  urls: readonly string[];
  /** Where the document's linked parts live (linked MHTML), which its CSP names; else `null`. */
  partsBase: string | null;
}

export type PreviewDocumentState =
  | { status: 'idle' }
  | { status: 'building' }
  | ReadyPreview
  /** `failure` says whether the file cannot be read or is past the preview's bounds. */
  | { status: 'error'; failure: PreviewFailure; message: string };

type Settled = { file: OriginalFile; ext: PreviewExt } & (
  ReadyPreview | { status: 'error'; failure: PreviewFailure; message: string }
);

export type BuildPreview = (
  request: PreviewRequest,
  signal: AbortSignal,
  options?: { onFirstPart?: OnFirstPart },
) => Promise<PreviewResponse>;

/** After a first part: only end tags (of the containers the pieces go into) and white space. */
const ONLY_END_TAGS = /^(?:\s|<\/[a-zA-Z][^<>]*>)*$/;

/**
 * The document the frame keeps once the answer has come after a first part: the first part itself
 * when the rest of the document is only end tags (the parser closes them at its end); the full
 * document otherwise (content after the body, which the first part lacks), which reloads the frame.
 */
function documentAfterFirst(preview: MaterializedPreview, first: string): string {
  const { html } = preview;
  return html.startsWith(first) && ONLY_END_TAGS.test(html.slice(first.length)) ? first : html;
}

export function usePreviewDocument(
  file: OriginalFile | undefined,
  ext: PreviewExt,
  build: BuildPreview = runPreviewWorker,
): PreviewDocumentState {
  const [settled, setSettled] = useState<Settled | null>(null);

  useEffect(() => {
    if (file === undefined) return;
    const controller = new AbortController();
    let urls: string[] = [];
    let first: string | null = null;
    let cancelPreloads = () => {};
    let forgetShown = () => {};
    const partsBase = file.encoding === 'linked-mhtml' ? (file.partsBase ?? null) : null;
    // A long page's first part, shown while the worker writes the rest. Its resources are few
    // (those of its first screen): their URLs are made at once, and kept for the answer.
    const onFirstPart = (message: PreviewFirstPart) => {
      if (controller.signal.aborted || first !== null) return;
      urls = message.resources.map(resourceUrl);
      first = fillTemplate(message.first, urls);
      // Whether it has shadow roots is known with the answer: until then, frames are looked for
      // inside them too.
      const shown = { html: first, pieces: null, whole: null, shadowRoots: true, urls, partsBase };
      setSettled({ file, ext, status: 'ready', ...shown });
    };
    const run = async () => {
      // Started by the route's loader already (build-ahead.ts), else now.
      const adopted = adoptPreviewBuild(file, ext, controller.signal, onFirstPart);
      forgetShown = notePreviewShown(file);
      const building =
        adopted?.response ??
        build({ file, ext, reservedNames: thisReservedMemberNames() }, controller.signal, {
          onFirstPart,
        });
      // A linked page's images load while the worker (started first: its script must not wait
      // behind them) writes the document; the loader may have started them (`preloadAhead`).
      cancelPreloads = adopted?.cancelPreloads ?? takePreloads(file.preload);
      const response = await building;
      if (controller.signal.aborted) return;
      if (!response.ok) {
        const { failure, message } = response;
        setSettled({ file, ext, status: 'error', failure, message });
        return;
      }
      // Revokes what it made and rejects if the preview goes away meanwhile.
      const preview = await materializePreviewInSlices(
        response,
        controller.signal,
        undefined,
        undefined,
        urls,
      );
      urls = preview.urls;
      const { shadowRoots } = response;
      const { pieces, whole } = preview;
      const html = first === null ? preview.html : documentAfterFirst(preview, first);
      setSettled({ file, ext, status: 'ready', html, pieces, whole, shadowRoots, urls, partsBase });
    };
    run().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      setSettled({ file, ext, status: 'error', failure: 'unreadable', message });
    });
    return () => {
      controller.abort();
      cancelPreloads();
      forgetShown();
      revokeUrls(urls);
    };
  }, [file, ext, build]);

  if (file === undefined) return { status: 'idle' };
  // A result for another input is stale: the new one is being built.
  if (!settled || settled.file !== file || settled.ext !== ext) return { status: 'building' };
  if (settled.status === 'ready') {
    const { html, pieces, whole, shadowRoots, urls: used, partsBase } = settled;
    return { status: 'ready', html, pieces, whole, shadowRoots, urls: used, partsBase };
  }
  return { status: 'error', failure: settled.failure, message: settled.message };
}
