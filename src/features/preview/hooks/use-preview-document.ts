// Builds the preview document for an archive's original file in the worker, makes the blob: URLs of its
// resources and revokes them when the input changes or the component goes away.
import { useEffect, useState } from 'react';

import type { OriginalFile } from '../../../api/original-file.ts';
import type {
  PreviewExt,
  PreviewFailure,
  PreviewRequest,
  PreviewResponse,
} from '../document/build-preview.ts';
import { thisReservedMemberNames } from '../document/document-members.ts';
import { materializePreviewInSlices, revokeUrls, type PreviewPiece } from '../frame/materialize.ts';
import { runPreviewWorker } from '../frame/run-preview-worker.ts';

/**
 * A preview ready to show: `html` for the frame, then a long page's `pieces` appended in order;
 * `whole` is the document with its pieces (for reader mode); `urls` are the blob: URLs of the
 * archive's resources that they use.
 */
export interface ReadyPreview {
  status: 'ready';
  html: string;
  pieces: readonly PreviewPiece[];
  whole: string;
  shadowRoots: boolean;
  urls: readonly string[];
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
) => Promise<PreviewResponse>;

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
    const run = async () => {
      const reservedNames = thisReservedMemberNames();
      const response = await build({ file, ext, reservedNames }, controller.signal);
      if (controller.signal.aborted) return;
      if (!response.ok) {
        const { failure, message } = response;
        setSettled({ file, ext, status: 'error', failure, message });
        return;
      }
      // Revokes what it made and rejects if the preview goes away meanwhile.
      const preview = await materializePreviewInSlices(response, controller.signal);
      urls = preview.urls;
      const { shadowRoots } = response;
      const { html, pieces, whole } = preview;
      setSettled({ file, ext, status: 'ready', html, pieces, whole, shadowRoots, urls });
    };
    run().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      setSettled({ file, ext, status: 'error', failure: 'unreadable', message });
    });
    return () => {
      controller.abort();
      revokeUrls(urls);
    };
  }, [file, ext, build]);

  if (file === undefined) return { status: 'idle' };
  // A result for another input is stale: the new one is being built.
  if (!settled || settled.file !== file || settled.ext !== ext) return { status: 'building' };
  if (settled.status === 'ready') {
    const { html, pieces, whole, shadowRoots, urls: used } = settled;
    return { status: 'ready', html, pieces, whole, shadowRoots, urls: used };
  }
  return { status: 'error', failure: settled.failure, message: settled.message };
}
