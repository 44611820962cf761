import { randomBytes } from 'node:crypto';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BlobWriter } from './blob-writer.ts';

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

  /** Writes the groups of bytes held in memory (small uploads), off the main thread. */
  private readonly writer = new BlobWriter();

  constructor(private readonly root: string) {}

  /** Stops the file writer's worker (writes in flight fail). */
  async close(): Promise<void> {
    await this.writer.close();
  }

  /**
   * Creates the root and its staging folder (so that whether an upload was staged or held in
   * memory leaves the same folders) and removes temp files left by a crash (staged uploads
   * included).
   */
  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await this.ensureFolder(join(this.root, STAGING_FOLDER));
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

  /**
   * Removes the file of `id` (none is fine), and its folder if that leaves it empty: what an upload
   * that was refused after its file was written leaves behind. A file being written to that folder
   * meanwhile keeps it (or makes it again: the writers make a folder that went away, once).
   */
  async remove(id: string): Promise<void> {
    const target = this.pathOf(id);
    await rm(target, { force: true });
    await rmdir(dirname(target)).catch(() => undefined);
    this.folders.delete(dirname(target));
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
    await this.ensureFolder(folder);
    const path = join(folder, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`);
    const handle = await open(path, 'wx', 0o600).catch(async (error: unknown) => {
      // The folder went away under this process: made again, once.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.folders.delete(folder);
      await this.ensureFolder(folder);
      return open(path, 'wx', 0o600);
    });
    return new StagedBlob(path, handle);
  }

  /** Stores an upload's bytes, held or staged, under `id` (their sha256): see `commitMany`. */
  async commit(staged: Staged, id: string): Promise<void> {
    const [outcome] = await this.commitMany([{ staged, id }]);
    if (outcome !== undefined) throw outcome;
  }

  /**
   * Stores uploads' bytes under their ids, together; returns, per entry, undefined when it is
   * stored or the error that stopped it. Bytes held in memory go to the file writer's worker in
   * one message (each written to a temp file of its folder, synced, renamed over any file of its
   * id: the same bytes; each folder synced once). Staged files are synced (at once), renamed into
   * place (one whose id is stored already is discarded), then each folder that received one is
   * synced once.
   */
  async commitMany(
    entries: readonly { staged: Staged; id: string }[],
  ): Promise<(Error | undefined)[]> {
    const outcomes: (Error | undefined)[] = entries.map(() => undefined);
    const held: { staged: StagedBytes; id: string; index: number }[] = [];
    const files: { staged: StagedBlob; id: string; index: number }[] = [];
    for (const [index, { staged, id }] of entries.entries()) {
      if (staged instanceof StagedBytes) held.push({ staged, id, index });
      else files.push({ staged, id, index });
    }
    const [heldOutcomes, fileOutcomes] = await Promise.all([
      this.writeHeld(held),
      this.commitFiles(files),
    ]);
    for (const [k, { index }] of held.entries()) outcomes[index] = heldOutcomes[k];
    for (const [k, { index }] of files.entries()) outcomes[index] = fileOutcomes[k];
    return outcomes;
  }

  private async writeHeld(
    entries: readonly { staged: StagedBytes; id: string }[],
  ): Promise<(Error | undefined)[]> {
    if (entries.length === 0) return [];
    const writes = entries.map(({ staged, id }) => {
      const target = this.pathOf(id);
      const folder = dirname(target);
      const temp = join(folder, `${TEMP_PREFIX}${id}-${randomBytes(6).toString('hex')}`);
      return { folder, temp, target, bytes: staged.bytes };
    });
    try {
      const outcomes = await this.writer.writeMany(writes);
      for (const [index, { staged }] of entries.entries()) {
        if (outcomes[index] === undefined) staged.committed = true;
      }
      return outcomes;
    } catch (error) {
      return entries.map(() => asError(error));
    }
  }

  private async commitFiles(
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

/**
 * The bytes of an upload small enough to be held in memory until their id is known (see
 * `BlobStore.commitMany`): no staged file, nothing to read back for the parse.
 */
export class StagedBytes {
  committed = false;

  constructor(private held: Uint8Array) {}

  get bytes(): Uint8Array {
    return this.held;
  }

  /** Lets go of the bytes. */
  discard(): Promise<void> {
    this.held = new Uint8Array(0);
    return Promise.resolve();
  }
}

/** An upload's bytes waiting for their id: in memory (small) or in a staged file. */
export type Staged = StagedBlob | StagedBytes;

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
