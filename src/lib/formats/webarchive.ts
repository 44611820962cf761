// Safari/WebKit `.webarchive` reader: a property list (binary as Safari writes it, or XML after
// `plutil -convert xml1`) holding the main resource, subresources and subframe archives.
import { isBplist, parseBplist, type PlistDict, type PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';
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

const MAX_FRAME_DEPTH = 32;

function fail(message: string): never {
  throw new FormatError('webarchive', message);
}

function isDict(value: PlistValue | undefined): value is PlistDict {
  return value instanceof Map;
}

function readResource(value: PlistValue | undefined, where: string): WebResource {
  if (!isDict(value)) fail(`${where} is not a dictionary`);
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
  const resource: WebResource = {
    url,
    mimeType: mimeType.trim().toLowerCase(),
    textEncoding: textEncoding?.trim() || null,
    data,
  };
  if (typeof frameName === 'string') resource.frameName = frameName;
  return resource;
}

function readArchive(value: PlistValue | undefined, where: string, depth: number): Webarchive {
  if (depth > MAX_FRAME_DEPTH) fail('subframe archives nested too deeply');
  if (!isDict(value)) fail(`${where} is not a dictionary`);
  if (!value.has('WebMainResource')) fail(`${where} has no WebMainResource`);
  const mainResource = readResource(value.get('WebMainResource'), `${where}.WebMainResource`);

  const subresourceList = value.get('WebSubresources');
  if (subresourceList !== undefined && !Array.isArray(subresourceList)) {
    fail(`${where}.WebSubresources is not an array`);
  }
  const subresources = (subresourceList ?? []).map((item, index) =>
    readResource(item, `${where}.WebSubresources[${index}]`),
  );

  const frameList = value.get('WebSubframeArchives');
  if (frameList !== undefined && !Array.isArray(frameList)) {
    fail(`${where}.WebSubframeArchives is not an array`);
  }
  const subframeArchives = (frameList ?? []).map((item, index) =>
    readArchive(item, `${where}.WebSubframeArchives[${index}]`, depth + 1),
  );
  return { mainResource, subresources, subframeArchives };
}

/**
 * Parses a webarchive. Throws `FormatError` when the bytes are not a property list, or the list is
 * not a webarchive (no main resource, or a field of the wrong type).
 */
export function parseWebarchive(bytes: Uint8Array): Webarchive {
  let root: PlistValue;
  if (isBplist(bytes)) root = parseBplist(bytes);
  else if (looksLikeXmlPlist(bytes)) root = parseXmlPlist(bytes);
  else fail('not a property list');
  return readArchive(root, 'archive', 0);
}
