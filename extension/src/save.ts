import { ArchiveClient, type SavedWebpage } from './api.ts';
import { appUrlOf, type Settings } from './settings.ts';

export type SaveOutcome =
  | { status: 'saved' | 'exists'; page: SavedWebpage; pageUrl: string }
  | { status: 'failed'; reason: string };

export interface SaveInput {
  /** The page as MHTML (`chrome.pageCapture.saveAsMHTML`). */
  mhtml: Uint8Array;
  /** The tab's address: the page's link when the MHTML names none. */
  tabUrl: string | undefined;
  settings: Settings;
  /** Tests pass a fetch; the service worker uses the global one. */
  fetchImpl?: ConstructorParameters<typeof ArchiveClient>[2];
}

/**
 * Saves a captured page, unless the archive has it: the same file (the archive's id is the
 * sha256 of the file) or a live page with the same link (each capture of a page is a new file:
 * its MIME boundary and date change). Then its labels get the default ones and the answer is
 * "already in the archive". Otherwise the MHTML is uploaded; a page the server stored without a
 * link gets the tab's address, and the default labels are added.
 */
export async function savePage({
  mhtml,
  tabUrl,
  settings,
  fetchImpl,
}: SaveInput): Promise<SaveOutcome> {
  const client = new ArchiveClient(settings.baseUrl, settings.token, fetchImpl);
  try {
    const link = mhtmlLink(mhtml) ?? httpLink(tabUrl);
    const existing =
      (await client.find(await sha256Hex(mhtml))) ??
      (link === undefined ? undefined : await client.findByLink(link));
    const page = existing ?? (await client.upload(toBase64(mhtml), 'mhtml'));
    const patch: { link?: string; labels?: string[] } = {};
    const tabLink = httpLink(tabUrl);
    if (existing === undefined && page.link === undefined && tabLink !== undefined) {
      patch.link = tabLink;
    }
    const labels = [...new Set([...page.labels, ...settings.labels])];
    if (labels.length > page.labels.length) patch.labels = labels;
    const saved = Object.keys(patch).length > 0 ? await client.patch(page.id, patch) : page;
    return {
      status: existing === undefined ? 'saved' : 'exists',
      page: saved,
      pageUrl: `${appUrlOf(settings)}/webpages/${encodeURIComponent(saved.id)}`,
    };
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The longest MHTML header read for the page's address. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * The page's address as Chromium writes it in the MHTML's top header
 * (`Snapshot-Content-Location:`), normalised like the server does; undefined when absent.
 */
export function mhtmlLink(mhtml: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(mhtml.subarray(0, MAX_HEADER_BYTES));
  const end = head.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? head : head.slice(0, end)).split(/\r?\n/);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== 'snapshot-content-location') {
      continue;
    }
    return httpLink(line.slice(colon + 1).trim());
  }
  return undefined;
}

function httpLink(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Standard padded base64, in chunks (a page of tens of MB must not overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  const chunks: string[] = [];
  const size = 0x8000;
  for (let start = 0; start < bytes.length; start += size) {
    chunks.push(String.fromCharCode(...bytes.subarray(start, start + size)));
  }
  return btoa(chunks.join(''));
}
