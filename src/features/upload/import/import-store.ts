// The app's one import runner, wired to the encode worker, the XHR transport and the connection
// settings. What it remembers for resuming: in localStorage, per archive address, the hashes of the
// keys of the files the archive stored — (relative path, size, lastModified) for files of a folder,
// (zip name, entry path, size, CRC-32) for zip entries — at most MAX_REMEMBERED (oldest dropped).
import { authStatus } from '../../../api/client.ts';
import { isApiError } from '../../../api/errors.ts';
import { loadConnectionSettings } from '../../../lib/connection-settings.ts';
import { checkFormat } from '../detect-format.ts';
import { encodeFile, readFileHead, readFileTail } from '../encode-file.ts';
import { describeUploadError } from '../upload-errors.ts';
import { sendUpload } from '../upload-request.ts';
import { createImportRunner } from './import-runner.ts';
import type { DoneStore, ImportRunner } from './import-runner.ts';

export const IMPORT_DONE_KEY = 'folio.import.done';
const MAX_REMEMBERED = 200_000;

function storageKey(): string {
  return `${IMPORT_DONE_KEY}:${loadConnectionSettings().baseUrl}`;
}

/** The remembered keys of the current archive (a Set, written back as a space-separated list). */
export function localDoneStore(): DoneStore {
  const key = storageKey();
  let list: string[] = [];
  try {
    list = (localStorage.getItem(key) ?? '').split(' ').filter(Boolean);
  } catch {
    list = [];
  }
  const keys = new Set(list);
  let dirty = false;
  return {
    has: (entry) => keys.has(entry),
    add(entry) {
      if (keys.has(entry)) return;
      keys.add(entry);
      dirty = true;
    },
    flush() {
      if (!dirty) return;
      dirty = false;
      const all = [...keys];
      try {
        localStorage.setItem(key, all.slice(Math.max(0, all.length - MAX_REMEMBERED)).join(' '));
      } catch {
        // Storage full or blocked: the next import sends again and is told "already there".
      }
    },
  };
}

const asFile = (blob: Blob, name: string) =>
  blob instanceof File ? blob : new File([blob], name, { type: blob.type });

export const importRunner: ImportRunner = createImportRunner({
  async check(blob, name) {
    const file = asFile(blob, name);
    const [head, tail] = await Promise.all([readFileHead(file), readFileTail(file)]);
    return checkFormat(name, head, { bytes: tail, size: file.size });
  },
  encode: (blob, signal) => encodeFile(asFile(blob, 'page'), { signal, onProgress: () => {} }),
  async send(content, ext, signal) {
    const result = await sendUpload({
      connection: loadConnectionSettings(),
      content,
      fields: { ext },
      signal,
      onStatus: authStatus.report,
    });
    return { id: result.webpage.id, alreadyArchived: result.alreadyArchived };
  },
  describeError(error, ext) {
    const stop =
      isApiError(error) &&
      (error.kind === 'offline' || error.status === 401 || error.status === 403);
    return { reason: describeUploadError(error, ext), stop };
  },
  doneStore: localDoneStore,
  concurrency: 2,
});
