// URL helpers for the preview: resolution against the document or stylesheet address, data: URLs
// and `srcset` lists. Pure functions (the WHATWG URL parser is available in workers).
import { decodeBase64 } from '../../../../shared/formats/bytes.ts';

/** `ref` resolved against `base` (as a browser would), or `null` when it is not a valid URL. */
export function resolveUrl(ref: string, base: string | null): URL | null {
  try {
    return base ? new URL(ref, base) : new URL(ref);
  } catch {
    return null;
  }
}

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The MIME essence of a data: URL (`text/plain` when empty, as the Fetch standard says). */
export function dataUrlType(url: URL): string {
  const comma = url.pathname.indexOf(',');
  const header = comma === -1 ? url.pathname : url.pathname.slice(0, comma);
  const essence = (header.split(';')[0] ?? '').trim().toLowerCase();
  return essence || 'text/plain';
}

/** The bytes of a data: URL, or `null` when it is malformed. */
export function dataUrlBytes(url: URL): Uint8Array | null {
  const href = url.href;
  const comma = href.indexOf(',');
  if (comma === -1) return null;
  const header = href.slice(5, comma);
  const body = href.slice(comma + 1);
  try {
    if (/;\s*base64\s*$/i.test(header)) return decodeBase64(decodeURIComponent(body));
    return percentDecode(body);
  } catch {
    return null;
  }
}

/** Percent-decodes to bytes (an invalid escape is kept as written, like the URL standard). */
function percentDecode(text: string): Uint8Array {
  const raw = new TextEncoder().encode(text);
  const out = new Uint8Array(raw.length);
  let o = 0;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    if (byte === 0x25 && i + 2 < raw.length) {
      const hex = String.fromCharCode(raw[i + 1]!, raw[i + 2]!);
      if (/^[0-9a-f]{2}$/i.test(hex)) {
        out[o++] = parseInt(hex, 16);
        i += 2;
        continue;
      }
    }
    out[o++] = byte;
  }
  return out.subarray(0, o);
}

export interface SrcsetCandidate {
  url: string;
  /** Width/density descriptors as written (`640w`, `2x`), possibly empty. */
  descriptors: string;
}

const ASCII_WHITESPACE = /[\t\n\f\r ]/;

/**
 * Splits a `srcset` value into candidates following the HTML standard's parsing steps (URLs may
 * contain commas; a trailing comma ends a candidate; descriptors run to the next top-level comma).
 */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && (ASCII_WHITESPACE.test(value[i]!) || value[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !ASCII_WHITESPACE.test(value[i]!)) i++;
    let url = value.slice(start, i);
    let descriptors = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const descriptorStart = i;
      let depth = 0;
      while (i < n) {
        const c = value[i]!;
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
        i++;
      }
      descriptors = value.slice(descriptorStart, i).trim().replace(/\s+/g, ' ');
      i++; // the comma
    }
    if (url) candidates.push({ url, descriptors });
  }
  return candidates;
}

export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates
    .map((candidate) =>
      candidate.descriptors ? `${candidate.url} ${candidate.descriptors}` : candidate.url,
    )
    .join(', ');
}
