// The entry names of a Folio export (`.zip`), decided by structure: a name is one of the three
// shapes below or it is refused. Nothing else is ever read from, or written to, a name.
import type { WebpageExt } from '../store/records.ts';

export const EXPORT_JSON = 'folio-export.json';
export const BOOKMARKS_HTML = 'bookmarks.html';
export const ORIGINALS_FOLDER = 'originals';

export const WEBPAGE_EXTS: readonly WebpageExt[] = ['html', 'mhtml', 'webarchive'];

/** A webpage id: the lowercase hex sha256 of its file. */
export function isWebpageId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 64) return false;
  for (let index = 0; index < 64; index++) {
    const code = value.charCodeAt(index);
    const digit = code >= 0x30 && code <= 0x39;
    const lowerHex = code >= 0x61 && code <= 0x66;
    if (!digit && !lowerHex) return false;
  }
  return true;
}

export function isWebpageExt(value: unknown): value is WebpageExt {
  return typeof value === 'string' && (WEBPAGE_EXTS as readonly string[]).includes(value);
}

/** `originals/<id>.<ext>` */
export function originalEntryName(id: string, ext: WebpageExt): string {
  return `${ORIGINALS_FOLDER}/${id}.${ext}`;
}

export type ExportEntry =
  { kind: 'json' } | { kind: 'bookmarks' } | { kind: 'original'; id: string; ext: WebpageExt };

/**
 * What an entry name is, or undefined when it is none of the export's shapes: the name is split
 * into its parts, and each part must be exactly what the export writes (no `..`, no absolute
 * name, no backslash, no other folder: those are simply not among the shapes).
 */
export function classifyEntryName(name: string): ExportEntry | undefined {
  if (name === EXPORT_JSON) return { kind: 'json' };
  if (name === BOOKMARKS_HTML) return { kind: 'bookmarks' };
  const parts = name.split('/');
  if (parts.length !== 2 || parts[0] !== ORIGINALS_FOLDER) return undefined;
  const file = parts[1] ?? '';
  const dot = file.indexOf('.');
  if (dot < 0) return undefined;
  const id = file.slice(0, dot);
  const ext = file.slice(dot + 1);
  if (!isWebpageId(id) || !isWebpageExt(ext)) return undefined;
  return { kind: 'original', id, ext };
}

/** A name as shown in a message: escaped, at most 80 characters. */
export function shownName(name: string): string {
  const json = JSON.stringify(name);
  return json.length > 82 ? `${json.slice(0, 80)}…"` : json;
}
