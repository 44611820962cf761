// What an upload that a crash cut off leaves in the data folder: its file in the blob store with no
// record (the crash came between the two), or its temp file. Both are removed when the archive
// opens; the file of every record stays, a deleted page's too (a re-upload restores the page).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import { ok, upload } from './support/api.ts';
import { startTestServer } from './support/test-server.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('files without a record', () => {
  it('are removed when the archive opens; recorded files (deleted pages too) stay', async () => {
    const first = await startTestServer({ keepDataDir: true });
    const { dataDir } = first;
    const blobs = join(dataDir, 'blobs');
    // Past the 64 kB kept in the database: their bytes are files of the blob store.
    const body = `<p>${'kept in a file '.repeat(6_000)}</p>`;
    const live = makeHtml({ title: 'Live page', body });
    const deleted = makeHtml({ title: 'Deleted page', body });
    let liveId: string;
    let deletedId: string;
    try {
      liveId = (await upload(first, live, 'html')).id;
      deletedId = (await upload(first, deleted, 'html')).id;
      await ok(first, 'deleteWebpage', { params: { id: deletedId } });
    } finally {
      await first.close();
    }

    // What a crash leaves: a complete file whose record was never written, temp files.
    const orphan = makeHtml({ title: 'Cut off' });
    const orphanId = sha256(orphan);
    mkdirSync(join(blobs, orphanId.slice(0, 2)), { recursive: true });
    writeFileSync(join(blobs, orphanId.slice(0, 2), orphanId), orphan);
    mkdirSync(join(blobs, '.staging'), { recursive: true });
    writeFileSync(join(blobs, '.staging', '.tmp-0123456789abcdef01234567'), 'half an upload');
    const partial = join(blobs, liveId.slice(0, 2), `.tmp-${liveId}-a1b2c3`);
    writeFileSync(partial, 'half a file');
    // Not the blob store's: left alone.
    writeFileSync(join(blobs, 'README'), 'a note');

    const second = await startTestServer({ dataDir, keepDataDir: false });
    try {
      const files = readdirSync(blobs)
        .filter((name) => name !== 'README')
        .flatMap((folder) => readdirSync(join(blobs, folder)).map((name) => `${folder}/${name}`));
      expect(files.sort()).toEqual(
        [liveId, deletedId].map((id) => `${id.slice(0, 2)}/${id}`).sort(),
      );
      expect(existsSync(join(blobs, 'README'))).toBe(true);

      // The live page's file is served; the deleted page comes back with its file on re-upload.
      const content = await ok(second, 'getWebpageContent', { params: { id: liveId } });
      expect(Buffer.from(content, 'base64').equals(live)).toBe(true);
      expect((await upload(second, deleted, 'html')).id).toBe(deletedId);
      const restored = await ok(second, 'getWebpageContent', { params: { id: deletedId } });
      expect(Buffer.from(restored, 'base64').equals(deleted)).toBe(true);
      // The cut-off upload can be made again.
      expect((await upload(second, orphan, 'html')).title).toBe('Cut off');
    } finally {
      await second.close();
    }
  });
});
