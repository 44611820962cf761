import { randomBytes } from 'node:crypto';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { join } from 'node:path';

const ID_PATTERN = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';

/**
 * Original files, content-addressed: `<root>/<id[0..2]>/<id>` where id is the sha256 hex of the
 * bytes. A file appears under its name only complete and on disk (temp file, fsync, rename, fsync
 * of the folder), so a record written after `put` never points at a missing or partial file.
 */
export class BlobStore {
  /** Folders known to exist (made or seen by this process): no `mkdir` for each file. */
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  /** Creates the root and removes temp files left by a crash (staged uploads included). */
  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    for (const folder of await readdir(this.root, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const path = join(this.root, folder.name);
      for (const name of await readdir(path)) {
        if (name.startsWith(TEMP_PREFIX)) await rm(join(path, name), { force: true });
      }
    }
  }

  /**
   * Removes the files that no record names (`isRecorded` says false): those of uploads that a
   * crash cut off between the file and its record. Run at start, before any upload. Returns the
   * ids removed.
   */
  async collectOrphans(isRecorded: (id: string) => boolean): Promise<string[]> {
    const removed: string[] = [];
    for (const folder of await readdir(this.root, { withFileTypes: true })) {
      if (!folder.isDirectory() || !/^[0-9a-f]{2}$/.test(folder.name)) continue;
      for (const file of await readdir(join(this.root, folder.name), { withFileTypes: true })) {
        const id = file.name;
        if (!file.isFile() || !ID_PATTERN.test(id) || !id.startsWith(folder.name)) continue;
        if (isRecorded(id)) continue;
        await rm(join(this.root, folder.name, id), { force: true });
        removed.push(id);
      }
    }
    return removed;
  }

  pathOf(id: string): string {
    if (!ID_PATTERN.test(id)) throw new Error('a blob id is a lowercase hex sha256');
    return join(this.root, id.slice(0, 2), id);
  }

  async has(id: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(id))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Stores the bytes under their id (a no-op when they are there already). */
  async put(id: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(id);
    const folder = join(this.root, id.slice(0, 2));
    if (await this.has(id)) return;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const temp = join(folder, `${TEMP_PREFIX}${id}-${randomBytes(6).toString('hex')}`);
    try {
      const file = await open(temp, 'wx', 0o600);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncFolder(folder);
  }

  /** The exact stored bytes. */
  async read(id: string): Promise<Buffer> {
    return readFile(this.pathOf(id));
  }

  /**
   * A temp file for bytes that arrive before their id is known (a streamed upload); `commit`
   * moves it under its id, `discard` removes it. Leftovers of a crash are removed by `init`.
   */
  async stage(): Promise<StagedBlob> {
    const folder = join(this.root, STAGING_FOLDER);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const path = join(folder, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`);
    return new StagedBlob(path, await open(path, 'wx', 0o600));
  }

  /** Stores a staged file under `id` (the sha256 of its bytes): fsync, rename, fsync the folder. */
  async commit(staged: StagedBlob, id: string): Promise<void> {
    const [outcome] = await this.commitMany([{ staged, id }]);
    if (outcome !== undefined) throw outcome;
  }

  /**
   * Stores staged files under their ids, together: every file is synced (at once), renamed into
   * place, then each folder that received one is synced once. A file whose id is stored already
   * is discarded. Returns, per file, undefined when it is stored or the error that stopped it.
   */
  async commitMany(
    entries: readonly { staged: StagedBlob; id: string }[],
  ): Promise<(Error | undefined)[]> {
    const outcomes: (Error | undefined)[] = await Promise.all(
      entries.map(({ staged }) => staged.close(true).then(() => undefined, asError)),
    );
    const renamed = new Map<string, number[]>();
    await Promise.all(
      entries.map(async ({ staged, id }, index) => {
        if (outcomes[index] !== undefined) return;
        try {
          const target = this.pathOf(id);
          if (await this.has(id)) {
            await staged.discard();
            return;
          }
          const folder = join(this.root, id.slice(0, 2));
          await this.ensureFolder(folder);
          try {
            await rename(staged.path, target).catch(async (error: unknown) => {
              // The folder went away under this process: made again, once.
              if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
              this.folders.delete(folder);
              await this.ensureFolder(folder);
              await rename(staged.path, target);
            });
          } catch (error) {
            await staged.discard();
            throw error;
          }
          staged.committed = true;
          renamed.set(folder, [...(renamed.get(folder) ?? []), index]);
        } catch (error) {
          outcomes[index] = asError(error);
        }
      }),
    );
    await Promise.all(
      [...renamed].map(async ([folder, indexes]) => {
        try {
          await syncFolder(folder);
        } catch (error) {
          for (const index of indexes) outcomes[index] = asError(error);
        }
      }),
    );
    return outcomes;
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (this.folders.has(folder)) return;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    this.folders.add(folder);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Where streamed uploads are written until their id is known. */
const STAGING_FOLDER = '.staging';

/** A temp file of the blob store being written (see `BlobStore.stage`). */
export class StagedBlob {
  committed = false;
  private handle: FileHandle | undefined;

  constructor(
    readonly path: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.handle === undefined) throw new Error('the staged file is closed');
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
  }

  /** The bytes written so far (the file must be complete). */
  async read(): Promise<Buffer> {
    return readFile(this.path);
  }

  async close(sync = false): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    this.handle = undefined;
    try {
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Removes the temp file (a no-op once committed). */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    if (!this.committed) await rm(this.path, { force: true });
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
