// The app's one upload queue, wired to the encode worker, the XHR transport and the connection
// settings. It lives at module level so uploads continue while the user browses other pages.
import { authStatus } from '../../api/client.ts';
import { loadConnectionSettings } from '../../lib/connection-settings.ts';
import { encodeFile, readFileHead, readFileTail } from './encode-file.ts';
import { createUploadQueue } from './upload-queue.ts';
import type { UploadQueue } from './upload-queue.ts';
import { sendUpload } from './upload-request.ts';
import { createAnnouncer } from './upload-status.ts';
import type { Announcer } from './upload-status.ts';

export const uploadQueue: UploadQueue = createUploadQueue({
  readHead: readFileHead,
  readTail: readFileTail,
  encode: encodeFile,
  send: ({ content, fields, signal, onProgress }) =>
    sendUpload({
      // Read at call time, like the API client: saved settings apply to the next upload.
      connection: loadConnectionSettings(),
      content,
      fields,
      signal,
      onProgress: (loaded, total) => onProgress(total > 0 ? loaded / total : 0),
      onStatus: authStatus.report,
    }),
  concurrency: 2,
});

export const uploadAnnouncer: Announcer = createAnnouncer(uploadQueue);

/** Adds files to the upload queue (from a drop anywhere, a paste, a file input). */
export function enqueueFiles(files: Iterable<File>): string[] {
  return uploadQueue.enqueue(files);
}
