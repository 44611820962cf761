// How the restore reads a Folio export's `.zip`: shared/formats/zip-entries.ts reads it (the
// directory by its bounds, Zip64; symlinks of any Unix host, encrypted entries, unknown methods,
// corrupt data, output past the declared size, CRC-32) and on top of that only the export's own
// names are taken (entry-names.ts), each once, each under its cap. A zip with any entry that is
// refused is refused whole, before the restore writes anything.
import {
  entryChunks,
  readZipDirectory,
  ZipEntryError,
  ZipError,
  type ZipEntry,
  type ZipSource,
} from '../../../shared/formats/zip-entries.ts';
import { classifyEntryName, shownName } from './entry-names.ts';

/** A zip that cannot be restored, or an entry of it that is refused; the message says which. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

export interface ExportZipLimits {
  /** Largest declared size of `folio-export.json`. */
  maxJsonBytes: number;
  /** Largest declared size of another entry (an original, `bookmarks.html`). */
  maxOriginalBytes: number;
  /** Most entries. */
  maxEntries: number;
}

/** The zip's entries by name, every one checked (see the file's comment). */
export async function readExportZip(
  source: ZipSource,
  limits: ExportZipLimits,
): Promise<ReadonlyMap<string, ZipEntry>> {
  let entries: ZipEntry[];
  try {
    entries = await readZipDirectory(source, {
      maxEntryBytes: Math.max(limits.maxJsonBytes, limits.maxOriginalBytes),
      maxEntries: limits.maxEntries,
    });
  } catch (error) {
    if (error instanceof ZipError) throw new RestoreRefused(error.message, { cause: error });
    throw error;
  }
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    const shown = shownName(entry.rawName);
    const kind = classifyEntryName(entry.rawName);
    if (kind === undefined) {
      throw new RestoreRefused(`the zip has an entry that is not part of an export: ${shown}`);
    }
    if (entry.problem !== null) throw new RestoreRefused(`the entry ${shown} is ${entry.problem}`);
    if (entry.kind !== 'file') throw new RestoreRefused(`the entry ${shown} is a ${entry.kind}`);
    if (byName.has(entry.rawName)) throw new RestoreRefused(`the zip has ${shown} twice`);
    const cap = kind.kind === 'json' ? limits.maxJsonBytes : limits.maxOriginalBytes;
    if (entry.size > cap) {
      throw new RestoreRefused(
        `${shown} declares ${entry.size} bytes; at most ${cap} are accepted`,
      );
    }
    byName.set(entry.rawName, entry);
  }
  return byName;
}

/**
 * An entry's bytes as they are inflated (shared/formats/zip-entries.ts `entryChunks`: pieces of
 * about 64 KiB, never more than its declared size, its CRC-32 checked after the last), with what
 * is wrong with it as a RestoreRefused.
 */
export async function* exportEntryBytes(
  source: ZipSource,
  entry: ZipEntry,
): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    yield* entryChunks(source, entry, { maxEntryBytes: entry.size });
  } catch (error) {
    if (!(error instanceof ZipEntryError)) throw error;
    throw new RestoreRefused(`the entry ${shownName(entry.rawName)} is ${error.message}`, {
      cause: error,
    });
  }
}
