import { useRef, useState } from 'react';
import type { ChangeEvent, DragEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { ACCEPTED_SUFFIXES, formatFromFileName } from '../detect-format.ts';
import { isZipName } from '../import/import-runner.ts';
import { importRunner } from '../import/import-store.ts';
import type { UploadItem } from '../upload-queue.ts';
import { useUploadAnnouncement, useUploadQueue } from '../use-upload-queue.ts';
import { ImportPanel } from './import-panel.tsx';
import { ToSaveSection } from './to-save-section.tsx';
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

const loadSources = () => import('../import/import-sources.ts');
const isPage = (name: string) => formatFromFileName(name) !== null;

/**
 * More files than this at once go to an import (a progress bar and a summary) instead of one row
 * each in the queue, which is not virtualized.
 */
export const QUEUE_ROWS_BOUND = 200;

/** Imports dropped folders and zips (and the files dropped with them) as one import. */
function importDrop(entries: FileSystemEntry[], files: File[]): void {
  const first = entries[0] ?? files[0];
  const count = Math.max(entries.length, files.length);
  const label = count === 1 && first ? `“${first.name}”` : `${count} dropped items`;
  void importRunner.start(label, () =>
    loadSources().then((sources) => sources.sourceFromDrop(entries, files, isPage)),
  );
}

/** The entries of a drop, read while the drop event runs (they are gone afterwards). */
function droppedEntries(event: DragEvent): FileSystemEntry[] {
  const entries: FileSystemEntry[] = [];
  // Synthetic drops (and old browsers) may have no items or no entries: then the files are used.
  const items = (event.dataTransfer.items as DataTransferItemList | undefined) ?? [];
  for (const item of Array.from(items)) {
    const entry =
      item.kind === 'file' && typeof item.webkitGetAsEntry === 'function'
        ? item.webkitGetAsEntry()
        : null;
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The upload page: a drop zone with a file chooser, then one row per file with its progress. */
export function UploadPage() {
  const queue = useUploadQueue();
  const announcement = useUploadAnnouncement();
  const inputRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement | null>(null);
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
    const files = Array.from(event.dataTransfer.files);
    const entries = droppedEntries(event);
    if (
      files.length > QUEUE_ROWS_BOUND ||
      entries.some((entry) => entry.isDirectory) ||
      files.some((file) => isZipName(file.name))
    ) {
      importDrop(entries, files);
      return;
    }
    queue.enqueue(files);
  };
  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    const zips = files.filter((file) => isZipName(file.name));
    if (files.length > QUEUE_ROWS_BOUND) importDrop([], files);
    else {
      if (zips.length > 0) importDrop([], zips);
      queue.enqueue(files.filter((file) => !isZipName(file.name)));
    }
    // Choosing the same files again must fire `change` again.
    event.target.value = '';
  };
  const onChooseFolder = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    const folder = files[0]?.webkitRelativePath.split('/')[0] ?? 'the folder';
    void importRunner.start(`“${folder}”`, () =>
      loadSources().then((sources) => sources.sourceFromFiles(files, isPage)),
    );
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
          many files as you like; two upload at a time. A folder or a .zip is imported whole: other
          files in it are skipped, and dropping it again sends only what is missing.
        </p>
        <div className="upload-drop__buttons">
          <Button variant="primary" onClick={() => inputRef.current?.click()}>
            Choose files
          </Button>
          <Button onClick={() => folderRef.current?.click()}>Choose folder</Button>
        </div>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={`${ACCEPTED_SUFFIXES},.zip`}
          hidden
          aria-label="Files to upload"
          onChange={onChoose}
        />
        <input
          ref={(input) => {
            folderRef.current = input;
            if (input) input.webkitdirectory = true;
          }}
          type="file"
          multiple
          hidden
          aria-label="Folder to import"
          onChange={onChooseFolder}
        />
      </div>

      <ImportPanel />

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

      <ToSaveSection />
    </div>
  );
}
