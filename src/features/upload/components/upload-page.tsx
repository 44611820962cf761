import { useRef, useState } from 'react';
import type { ChangeEvent, DragEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { ACCEPTED_SUFFIXES } from '../detect-format.ts';
import type { UploadItem } from '../upload-queue.ts';
import { useUploadAnnouncement, useUploadQueue } from '../use-upload-queue.ts';
import { UploadRow } from './upload-row.tsx';
import '../upload.css';

function hasFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}

/** "5 files: 2 added, 1 failed, 2 in progress". */
function summarize(items: readonly UploadItem[]): string {
  const count = (test: (item: UploadItem) => boolean) => items.filter(test).length;
  const parts = [
    [count((item) => item.status === 'added'), 'added'],
    [count((item) => item.status === 'existing'), 'already in the archive'],
    [count((item) => item.status === 'encoding' || item.status === 'uploading'), 'in progress'],
    [count((item) => item.status === 'queued' || item.status === 'checking'), 'waiting'],
    [count((item) => item.status === 'blocked'), 'need attention'],
    [count((item) => item.status === 'failed'), 'failed'],
    [count((item) => item.status === 'canceled'), 'canceled'],
  ] as const;
  const details = parts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  const files = `${items.length} ${items.length === 1 ? 'file' : 'files'}`;
  return details.length > 0 ? `${files}: ${details.join(', ')}` : files;
}

/** The upload page: a drop zone with a file chooser, then one row per file with its progress. */
export function UploadPage() {
  const queue = useUploadQueue();
  const announcement = useUploadAnnouncement();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { items } = queue;
  const finished = items.some(
    (item) => item.status === 'added' || item.status === 'existing' || item.status === 'canceled',
  );
  const failed = items.filter((item) => item.status === 'failed').length;

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent<HTMLDivElement>) => {
    // Moving onto a child is not leaving the zone.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) {
      return;
    }
    setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (!hasFiles(event)) return;
    // Handled here: the app-wide drop zone skips drops whose default was prevented.
    event.preventDefault();
    queue.enqueue(Array.from(event.dataTransfer.files));
  };
  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    queue.enqueue(Array.from(event.target.files ?? []));
    // Choosing the same files again must fire `change` again.
    event.target.value = '';
  };

  return (
    <div className="page upload-page">
      <header className="page__header">
        <h1 className="page__title">Upload</h1>
      </header>
      <div
        className={dragging ? 'upload-drop upload-drop--active' : 'upload-drop'}
        role="region"
        aria-labelledby="upload-drop-title"
        aria-describedby="upload-drop-hint"
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <p className="upload-drop__title" id="upload-drop-title">
          Drop saved webpages here
        </p>
        <p className="upload-drop__hint" id="upload-drop-hint">
          HTML (.html, .htm, .xhtml), MHTML (.mhtml, .mht) or Safari webarchive (.webarchive). As
          many files as you like; two upload at a time.
        </p>
        <Button variant="primary" onClick={() => inputRef.current?.click()}>
          Choose files
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPTED_SUFFIXES}
          hidden
          aria-label="Files to upload"
          onChange={onChoose}
        />
      </div>

      <div className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </div>

      {items.length > 0 ? (
        <section className="upload-queue" aria-labelledby="upload-queue-title">
          <div className="upload-queue__header">
            <h2 className="section-title" id="upload-queue-title">
              Files
            </h2>
            <p className="upload-queue__summary">{summarize(items)}</p>
            <div className="upload-queue__actions">
              {failed > 1 ? <Button onClick={queue.retryFailed}>Retry all failed</Button> : null}
              <Button onClick={queue.clearFinished} disabled={!finished}>
                Clear finished
              </Button>
            </div>
          </div>
          <ul className="upload-queue__list">
            {items.map((item) => (
              <UploadRow key={item.id} item={item} actions={queue} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
