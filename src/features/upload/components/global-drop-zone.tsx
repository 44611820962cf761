import { useEffect, useEffectEvent, useState } from 'react';

import { enqueueFiles } from '../upload-store.ts';
import { useInvalidateAfterUploads } from '../use-upload-queue.ts';
import { useUploadToasts } from '../use-upload-toasts.ts';
import '../upload.css';

export interface GlobalDropZoneProps {
  /**
   * Called after files dropped anywhere in the app were added to the upload queue (the layout
   * navigates to the upload page with it).
   */
  onFiles?: (files: File[]) => void;
}

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/**
 * Accepts files dropped anywhere in the window: they join the upload queue, then `onFiles` runs.
 * Shows an overlay while files are dragged over the window. Drops already handled by an inner drop
 * zone (default prevented) are left alone. Mount it once in the layout: it also refreshes the
 * webpage lists after uploads that finish while the upload page is not shown, and says how each
 * batch of uploads ended.
 */
export function GlobalDropZone({ onFiles }: GlobalDropZoneProps) {
  const [dragging, setDragging] = useState(false);
  useInvalidateAfterUploads();
  useUploadToasts();
  const filesDropped = useEffectEvent((files: File[]) => {
    enqueueFiles(files);
    onFiles?.(files);
  });

  useEffect(() => {
    // dragenter and dragleave fire for every element crossed; count them to know when the drag
    // has left the window.
    let depth = 0;
    const onDragEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth++;
      setDragging(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Without this the browser opens the dropped file instead of letting the app take it.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const reset = () => {
      depth = 0;
      setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      reset();
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) filesDropped(files);
    };
    window.addEventListener('dragenter', onDragEnter);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    window.addEventListener('dragend', reset);
    return () => {
      window.removeEventListener('dragenter', onDragEnter);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('dragend', reset);
    };
  }, []);

  if (!dragging) return null;
  return (
    <div className="upload-global-overlay" aria-hidden="true">
      <p className="upload-global-overlay__message">Drop to upload to your archive</p>
    </div>
  );
}
