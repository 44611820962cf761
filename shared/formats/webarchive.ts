// Safari/WebKit `.webarchive` reader: a property list (binary as Safari writes it, or XML after
// `plutil -convert xml1`) holding the main resource, subresources and subframe archives.
import { isBplist, parseBplist, type PlistDict, type PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';
import {
  ARCHIVE_MAX_DECODED_BYTES,
  WEBARCHIVE_MAX_FRAME_DEPTH,
  WEBARCHIVE_MAX_FRAMES,
  WEBARCHIVE_MAX_RESOURCES,
} from './limits.ts';
import { looksLikeXmlPlist, parseXmlPlist } from './xml-plist.ts';

export interface WebResource {
  url: string;
  /** Lowercased, e.g. `text/html`. */
  mimeType: string;
  /** `WebResourceTextEncodingName` as written (e.g. `UTF-8`), or `null`. */
  textEncoding: string | null;
  frameName?: string;
  /** The resource bytes (a view into the input for binary plists). */
  data: Uint8Array;
}

export interface Webarchive {
  mainResource: WebResource;
  subresources: WebResource[];
  subframeArchives: Webarchive[];
}

function fail(message: string): never {
  throw new FormatError('webarchive', message);
}

function isDict(value: PlistValue | undefined): value is PlistDict {
  return value instanceof Map;
}

/**
 * Reads the archive's tree of frames and resources from a property list. A binary plist shares
 * objects by reference, so the list is a DAG: a frame listed twice in `WebSubframeArchives`, at
 * each of 24 levels, makes 2^24 frames out of 1.4 kB. Apple's writer never shares a dictionary or
 * an array (only strings, numbers, dates and data), so a container met a second time is refused
 * rather than walked again; frames, resources and their bytes are counted against the limits.
 */
class ArchiveReader {
  private readonly seen = new Set<object>();
  private frames = 0;
  private resources = 0;
  private bytes = 0;

  /** Marks a container as read; a second visit is a shared object. */
  private claim(container: object, what: string, where: string): void {
    if (this.seen.has(container)) {
      fail(
        `the webarchive reuses ${what}: ${where} is an object already read (shared objects are refused)`,
      );
    }
    this.seen.add(container);
  }

  private resource(value: PlistValue | undefined, where: string): WebResource {
    if (!isDict(value)) fail(`${where} is not a dictionary`);
    this.claim(value, 'a resource', where);
    if (++this.resources > WEBARCHIVE_MAX_RESOURCES) {
      fail(`more than ${WEBARCHIVE_MAX_RESOURCES} resources`);
    }
    const url = value.get('WebResourceURL');
    const mimeType = value.get('WebResourceMIMEType');
    const textEncoding = value.get('WebResourceTextEncodingName');
    const frameName = value.get('WebResourceFrameName');
    const data = value.get('WebResourceData');
    if (typeof url !== 'string') fail(`${where} has no WebResourceURL string`);
    if (typeof mimeType !== 'string') fail(`${where} has no WebResourceMIMEType string`);
    if (!(data instanceof Uint8Array)) fail(`${where} has no WebResourceData data`);
    if (textEncoding !== undefined && textEncoding !== null && typeof textEncoding !== 'string') {
      fail(`${where} has a non-string WebResourceTextEncodingName`);
    }
    if (frameName !== undefined && frameName !== null && typeof frameName !== 'string') {
      fail(`${where} has a non-string WebResourceFrameName`);
    }
    this.bytes += data.length;
    if (this.bytes > ARCHIVE_MAX_DECODED_BYTES) {
      fail(`the resources add up to more than ${ARCHIVE_MAX_DECODED_BYTES} bytes`);
    }
    const resource: WebResource = {
      url,
      mimeType: mimeType.trim().toLowerCase(),
      textEncoding: textEncoding?.trim() || null,
      data,
    };
    if (typeof frameName === 'string') resource.frameName = frameName;
    return resource;
  }

  /** A list of the archive: absent, or an array met for the first time. */
  private list(value: PlistValue | undefined, where: string): PlistValue[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) fail(`${where} is not an array`);
    this.claim(value, 'a list', where);
    return value;
  }

  archive(value: PlistValue | undefined, where: string, depth: number): Webarchive {
    if (depth > WEBARCHIVE_MAX_FRAME_DEPTH) fail('subframe archives nested too deeply');
    if (!isDict(value)) fail(`${where} is not a dictionary`);
    this.claim(value, 'a frame', where);
    if (++this.frames > WEBARCHIVE_MAX_FRAMES) fail(`more than ${WEBARCHIVE_MAX_FRAMES} frames`);
    if (!value.has('WebMainResource')) fail(`${where} has no WebMainResource`);
    const mainResource = this.resource(value.get('WebMainResource'), `${where}.WebMainResource`);
    const subresources = this.list(value.get('WebSubresources'), `${where}.WebSubresources`).map(
      (item, index) => this.resource(item, `${where}.WebSubresources[${index}]`),
    );
    const frames = this.list(value.get('WebSubframeArchives'), `${where}.WebSubframeArchives`);
    const subframeArchives = frames.map((item, index) =>
      this.archive(item, `subframe ${index} at depth ${depth + 1}`, depth + 1),
    );
    return { mainResource, subresources, subframeArchives };
  }
}

/**
 * Parses a webarchive. Throws `FormatError` when the bytes are not a property list, the list is
 * not a webarchive (no main resource, or a field of the wrong type), or it goes beyond a bound of
 * limits.ts (frames, resources, their bytes, nesting, a shared frame or resource).
 */
export function parseWebarchive(bytes: Uint8Array): Webarchive {
  let root: PlistValue;
  if (isBplist(bytes)) root = parseBplist(bytes);
  else if (looksLikeXmlPlist(bytes)) root = parseXmlPlist(bytes);
  else fail('not a property list');
  return new ArchiveReader().archive(root, 'archive', 0);
}
