// Where an import's files come from: a dropped folder (walked through `webkitGetAsEntry`), the
// files of a "Choose folder" input (`webkitdirectory`), or a .zip read through `File.slice` with the
// bounded reader of shared/formats/zip-entries.ts (each entry inflated only when it is sent).
// Loaded on demand by the upload page: none of this (nor fflate) is in the first screen.
import {
  blobSource,
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  readZipDirectory,
} from '../../../../shared/formats/zip-entries.ts';
import type { ZipLimits } from '../../../../shared/formats/zip-entries.ts';
// Only types from the upload page's modules: a value imported from them would make the upload
// route's chunk a shared one (and the first screen's import of it longer). What is a saved page is
// passed in (`isPage`).
import type { ImportCandidate, ImportSource, Refusal } from './import-runner.ts';

/** Whether a name is a saved page's (the caller's `formatFromFileName(name) !== null`). */
export type IsPageName = (name: string) => boolean;

const isZipName = (name: string) => name.toLowerCase().endsWith('.zip');

/** Folders deeper than this are not walked. */
export const MAX_FOLDER_DEPTH = 64;
/** Files (of any kind) an import looks at. */
export const MAX_IMPORT_FILES = 200_000;

const NOT_A_PAGE = 'not a saved page (html, mhtml or webarchive)';

/** A short stable hash of a key (cyrb53), so that tens of thousands fit in localStorage. */
export function hashKey(key: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const ch = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

class SourceBuilder {
  readonly candidates: ImportCandidate[] = [];
  readonly skipped: Refusal[] = [];
  readonly refused: Refusal[] = [];
  seen = 0;

  constructor(private readonly isPage: IsPageName) {}

  count(): void {
    if (++this.seen > MAX_IMPORT_FILES) {
      throw new Error(`More than ${MAX_IMPORT_FILES} files: import them in parts`);
    }
  }

  file(path: string, file: File): void {
    this.count();
    if (isZipName(path)) {
      this.skipped.push({ name: path, reason: 'a .zip inside a folder (drop it on its own)' });
    } else if (!this.isPage(path)) {
      this.skipped.push({ name: path, reason: NOT_A_PAGE });
    } else {
      this.candidates.push({
        name: path,
        key: hashKey(`file\0${path}\0${file.size}\0${file.lastModified}`),
        size: file.size,
        load: () => Promise.resolve(file),
      });
    }
  }

  done(): ImportSource {
    this.candidates.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { candidates: this.candidates, skipped: this.skipped, refused: this.refused };
  }
}

/** The files of an `<input webkitdirectory>` (or any list of files), by their relative paths. */
export function sourceFromFiles(files: readonly File[], isPage: IsPageName): ImportSource {
  const builder = new SourceBuilder(isPage);
  for (const file of files) builder.file(file.webkitRelativePath || file.name, file);
  return builder.done();
}

function readAll(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const entries: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    // readEntries answers in batches (100 in Chromium) until it answers an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) {
          resolve(entries);
          return;
        }
        entries.push(...batch);
        if (entries.length > MAX_IMPORT_FILES) {
          reject(new Error(`More than ${MAX_IMPORT_FILES} files: import them in parts`));
          return;
        }
        next();
      }, reject);
    next();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Walks dropped entries (files and folders, recursively, at most MAX_FOLDER_DEPTH deep). */
export async function sourceFromEntries(
  entries: readonly FileSystemEntry[],
  isPage: IsPageName,
): Promise<ImportSource> {
  const builder = new SourceBuilder(isPage);
  const stack = entries.map((entry) => ({ entry, depth: 0 }));
  while (stack.length > 0) {
    const { entry, depth } = stack.pop()!;
    const path = entry.fullPath.replace(/^\/+/, '') || entry.name;
    if (entry.isDirectory) {
      if (depth >= MAX_FOLDER_DEPTH) {
        builder.skipped.push({ name: path, reason: `deeper than ${MAX_FOLDER_DEPTH} folders` });
        continue;
      }
      for (const child of await readAll(entry as FileSystemDirectoryEntry)) {
        stack.push({ entry: child, depth: depth + 1 });
      }
    } else if (entry.isFile) {
      builder.file(path, await fileOf(entry as FileSystemFileEntry));
    }
  }
  return builder.done();
}

/**
 * A .zip's entries: refused by structure (zip-entries.ts), skipped when they are no saved page,
 * directories left out. A damaged zip rejects here, before anything is sent.
 */
export async function sourceFromZip(
  zip: File,
  isPage: IsPageName,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ImportSource> {
  const source = blobSource(zip);
  let entries;
  try {
    entries = await readZipDirectory(source, limits);
  } catch (error) {
    throw new Error(
      `${zip.name}: ${error instanceof Error ? error.message : String(error)}. Nothing was sent.`,
    );
  }
  const builder = new SourceBuilder(isPage);
  for (const entry of entries) {
    if (entry.kind === 'directory' && entry.problem === null) continue;
    if (entry.problem !== null) {
      builder.refused.push({ name: entry.rawName, reason: entry.problem });
    } else if (!isPage(entry.path)) {
      builder.skipped.push({ name: entry.path, reason: NOT_A_PAGE });
    } else {
      builder.candidates.push({
        name: entry.path,
        key: hashKey(`zip\0${zip.name}\0${entry.path}\0${entry.size}\0${entry.crc32}`),
        size: entry.size,
        load: async () => {
          const bytes = await inflateEntry(source, entry, limits);
          return new File(
            [bytes as Uint8Array<ArrayBuffer>],
            entry.path.split('/').pop() ?? 'page',
          );
        },
      });
    }
  }
  return builder.done();
}

/** Dropped things: zips are read as zips, folders walked, the rest taken as files. */
export async function sourceFromDrop(
  entries: readonly FileSystemEntry[],
  files: readonly File[],
  isPage: IsPageName,
): Promise<ImportSource> {
  const parts: ImportSource[] = [];
  const plain: FileSystemEntry[] = [];
  for (const entry of entries) {
    if (entry.isFile && isZipName(entry.name)) {
      parts.push(await sourceFromZip(await fileOf(entry as FileSystemFileEntry), isPage));
    } else plain.push(entry);
  }
  if (plain.length > 0) parts.push(await sourceFromEntries(plain, isPage));
  if (entries.length === 0) {
    for (const file of files) {
      parts.push(
        isZipName(file.name) ? await sourceFromZip(file, isPage) : sourceFromFiles([file], isPage),
      );
    }
  }
  return {
    candidates: parts.flatMap((part) => part.candidates),
    skipped: parts.flatMap((part) => part.skipped),
    refused: parts.flatMap((part) => part.refused),
  };
}
