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
import { materializePreviewInSlices, revokeUrls } from '../frame/materialize.ts';
import { runPreviewWorker } from '../frame/run-preview-worker.ts';

export type PreviewDocumentState =
  | { status: 'idle' }
  | { status: 'building' }
  /** `urls`: the blob: URLs of the archive's resources that `html` uses. */
  | { status: 'ready'; html: string; shadowRoots: boolean; urls: readonly string[] }
  /** `failure` says whether the file cannot be read or is past the preview's bounds. */
  | { status: 'error'; failure: PreviewFailure; message: string };

type Settled = { file: OriginalFile; ext: PreviewExt } & (
  | { status: 'ready'; html: string; shadowRoots: boolean; urls: readonly string[] }
  | { status: 'error'; failure: PreviewFailure; message: string }
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
      setSettled({ file, ext, status: 'ready', html: preview.html, shadowRoots, urls });
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
  return settled.status === 'ready'
    ? { status: 'ready', html: settled.html, shadowRoots: settled.shadowRoots, urls: settled.urls }
    : { status: 'error', failure: settled.failure, message: settled.message };
}
