// `folio-export.json`: what an export says about each page and view (format version 1).
//
// It is written one item a line so that neither the export nor the restore ever holds it whole:
//
//   {"format":"folio-export","version":1,…,"views":[…],"webpages":[      <- the header line
//   {…one page…},
//   {…the last page…}
//   ]}                                                                     <- the closing line
//
// The header line followed by `]}` is itself a JSON document; each page line is one JSON object
// (with a comma after it but the last). The whole file is one valid JSON document.
import type { WebpageExt } from '../store/records.ts';
import type { ViewRecord } from '../store/views.ts';

export const EXPORT_FORMAT = 'folio-export';
export const EXPORT_VERSION = 1;

export interface ExportedHighlight {
  id: string;
  text: string;
  textBefore: string;
  textAfter: string;
  note: string | null;
  tenThousandth: number | null;
  editTime: number;
}

export interface ExportedWebpage {
  id: string;
  title: string;
  excerpt: string;
  link: string | null;
  ext: WebpageExt;
  size: number;
  firstAddTime: number;
  createTime: number;
  lastModified: number;
  liked: boolean;
  read: boolean;
  labels: string[];
  highlights: ExportedHighlight[];
  /** The entry of the original file in the zip: `originals/<id>.<ext>`. */
  file: string;
}

/** A view as the store records it (its id, time and filter ids kept): ViewStore's `list`/`restore`. */
export type ExportedView = ViewRecord;

/** What was exported: everything, one view's pages, or the given pages. */
export type ExportSelection =
  { kind: 'all' } | { kind: 'view'; viewId: string } | { kind: 'ids'; ids: string[] };

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: number;
  selection: ExportSelection;
  /** How many page lines follow. */
  webpageCount: number;
  views: ExportedView[];
  /** Pages left out because their original is missing from the store (absent when none). */
  missingOriginals?: string[];
}

/** The header line: the header's JSON with `"webpages":[` in place of its closing brace. */
export function headerLine(header: ExportHeader): string {
  const json = JSON.stringify(header);
  return `${json.slice(0, -1)},"webpages":[\n`;
}

export const CLOSING_LINE = ']}\n';
