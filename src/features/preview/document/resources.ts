// The resources a preview document points at. The worker cannot make blob: URLs for the page (they
// belong to the thread that creates them), so the document refers to resource N through a token,
// `folio-res-<nonce>-N`, that the main thread swaps for a blob: URL. The nonce is random per build,
// so text in the archived page can never forge a token.
import { encodeBase64 } from '../../../../shared/formats/bytes.ts';
import { FONT_TYPE, IMAGE_TYPES, MEDIA_TYPE } from '../../../../shared/formats/resource-types.ts';
import type { ArchiveEntry } from './archive.ts';

/** Bytes for a blob: URL of the given type, or a linked part's address. */
export type BuiltResource = { type: string; bytes: Uint8Array } | { link: string };

/** How a resource is used, which decides the type its blob: URL may have. */
export type ResourceUse = 'image' | 'css-url' | 'media';

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

/** The image type the bytes' signature announces, or `null`. */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) {
    return 'image/webp';
  }
  if (startsWith(bytes, [0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69], 4)) return 'image/avif';
  if (startsWith(bytes, [0x42, 0x4d])) return 'image/bmp';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  return null;
}

/** Whether the entry is an SVG image (declared, or XML whose root is `<svg`). */
export function isSvg(entry: ArchiveEntry): boolean {
  if (entry.mimeType === 'image/svg+xml') return true;
  if (IMAGE_TYPES.has(entry.mimeType) || FONT_TYPE.test(entry.mimeType)) return false;
  const head = new TextDecoder()
    .decode(entry.body.subarray(0, 1024))
    .replace(/<!--[\s\S]*?-->/g, '');
  return /^\s*(?:<\?xml[^>]*>\s*)?(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(head);
}

/**
 * The type of a blob: URL for `entry` used as `use`. Only types a browser never runs as a document
 * with scripts: a user may open any image in a new tab, and a blob: URL lives in the app's origin,
 * so an HTML, XML or SVG blob there would be an XSS. Anything else becomes application/octet-stream
 * (a download when opened; images, fonts and media are still sniffed by their decoders).
 */
export function safeBlobType(entry: ArchiveEntry, use: ResourceUse): string {
  const declared = entry.mimeType;
  if (use === 'media') return MEDIA_TYPE.test(declared) ? declared : 'application/octet-stream';
  if (IMAGE_TYPES.has(declared)) return declared;
  if (use === 'css-url' && FONT_TYPE.test(declared)) return declared;
  return sniffImageType(entry.body) ?? 'application/octet-stream';
}

export function resourceToken(nonce: string, index: number): string {
  return `folio-res-${nonce}-${index}`;
}

/** A regular expression that finds the tokens of `nonce` (capturing N). */
export function tokenPattern(nonce: string): RegExp {
  return new RegExp(`folio-res-${nonce}-(\\d+)`, 'g');
}

export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Collects the resources of one preview, each at most once per way it is used. */
export class ResourceTable {
  readonly list: BuiltResource[] = [];
  private readonly binaries = new Map<ArchiveEntry, Map<string, string>>();
  private readonly svgDataUrls = new Map<ArchiveEntry, string>();

  private readonly links = new Map<ArchiveEntry, string>();

  /** `partsBase`: where linked parts live (linked MHTML), which the documents' CSP must name. */
  constructor(
    readonly nonce: string = randomNonce(),
    readonly partsBase: string | null = null,
  ) {}

  private push(resource: BuiltResource): string {
    this.list.push(resource);
    return resourceToken(this.nonce, this.list.length - 1);
  }

  /**
   * The URL to write for `entry` used as `use`: a token for a blob: URL, or for SVG a base64 data:
   * URL (an SVG opened from a data: URL runs in an opaque origin, never in the app's).
   */
  url(entry: ArchiveEntry, use: ResourceUse): string {
    if (entry.link !== undefined) return this.linked(entry, entry.link, use);
    if (use !== 'media' && isSvg(entry)) {
      let dataUrl = this.svgDataUrls.get(entry);
      if (dataUrl === undefined) {
        dataUrl = `data:image/svg+xml;base64,${encodeBase64(entry.body)}`;
        this.svgDataUrls.set(entry, dataUrl);
      }
      return dataUrl;
    }
    const type = safeBlobType(entry, use);
    let byType = this.binaries.get(entry);
    if (!byType) {
      byType = new Map();
      this.binaries.set(entry, byType);
    }
    let token = byType.get(type);
    if (token === undefined) {
      token = this.push({ type, bytes: entry.body });
      byType.set(type, token);
    }
    return token;
  }

  /**
   * A linked part: its link, which the server serves as the part's declared type (a linkable one),
   * if that type is one this use may load; else, like a blob of the wrong type, nothing to show.
   */
  private linked(entry: ArchiveEntry, link: string, use: ResourceUse): string {
    // The type a blob of it could have: its declared type only when this use may load that type
    // (its body is empty, so there is nothing to sniff otherwise).
    if (safeBlobType(entry, use) !== entry.mimeType) {
      return this.push({ type: 'application/octet-stream', bytes: new Uint8Array() });
    }
    let token = this.links.get(entry);
    if (token === undefined) {
      token = this.push({ link });
      this.links.set(entry, token);
    }
    return token;
  }
}
