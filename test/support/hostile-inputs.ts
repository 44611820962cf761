// Hostile files for the parsers' bounds: small inputs that cost much more than their size on a
// parser that walks shared objects as a tree, nests without a limit or trusts the counts it reads.
// Node-free (plain Uint8Array), so the browser-side tests can use them too.
import type { PlistDict, PlistValue } from '../../shared/formats/bplist.ts';
import { writeBplist } from './bplist-writer.ts';

const encoder = new TextEncoder();

function utf8(text: string): Uint8Array {
  return new Uint8Array(encoder.encode(text));
}

function mainResource(html: string | Uint8Array, url = 'https://example.com/'): PlistDict {
  return new Map<string, PlistValue>([
    ['WebResourceData', typeof html === 'string' ? utf8(html) : html],
    ['WebResourceFrameName', ''],
    ['WebResourceMIMEType', 'text/html'],
    ['WebResourceTextEncodingName', 'UTF-8'],
    ['WebResourceURL', url],
  ]);
}

/**
 * A webarchive whose subframe archives are one shared object, `levels` deep: every frame lists
 * the same child frame twice in `WebSubframeArchives`, so the file holds `levels + 1` frame
 * dictionaries (under 1 kB for 24 levels) but a tree walk visits 2^(levels+1) - 1 frames. The
 * objects are shared by reference, as Apple's writer lays them out (one object, its index written
 * twice in the array).
 */
export function sharedFrameWebarchive(levels = 24): Uint8Array {
  // One data object for every frame's HTML, as Apple's writer shares equal data.
  const html = utf8('<html><head><title>Frame</title></head><body>frame</body></html>');
  let frame: PlistDict = new Map<string, PlistValue>([['WebMainResource', mainResource(html)]]);
  for (let level = 0; level < levels; level++) {
    frame = new Map<string, PlistValue>([
      ['WebMainResource', mainResource(html)],
      ['WebSubframeArchives', [frame, frame]],
    ]);
  }
  return writeBplist(frame);
}

/**
 * A webarchive whose subresources are one shared resource dictionary listed `count` times (each
 * listing costs only a reference), the resource holding `dataBytes` bytes: what a reader that
 * copies each resource would allocate is `count × dataBytes`.
 */
export function sharedResourceWebarchive(count: number, dataBytes: number): Uint8Array {
  const image = new Map<string, PlistValue>([
    ['WebResourceData', new Uint8Array(dataBytes)],
    ['WebResourceMIMEType', 'image/png'],
    ['WebResourceURL', 'https://example.com/a.png'],
  ]);
  return writeBplist(
    new Map<string, PlistValue>([
      ['WebMainResource', mainResource('<title>Images</title><img src="a.png">')],
      ['WebSubresources', Array.from({ length: count }, () => image)],
    ]),
  );
}

/**
 * A webarchive whose resources are distinct dictionaries sharing one data object (what Apple's
 * writer does for identical resources), `count` of them of `dataBytes` each.
 */
export function sharedDataWebarchive(count: number, dataBytes: number): Uint8Array {
  const data = new Uint8Array(dataBytes);
  return writeBplist(
    new Map<string, PlistValue>([
      ['WebMainResource', mainResource('<title>Images</title>')],
      [
        'WebSubresources',
        Array.from(
          { length: count },
          (_, index) =>
            new Map<string, PlistValue>([
              ['WebResourceData', data],
              ['WebResourceMIMEType', 'image/png'],
              ['WebResourceURL', `https://example.com/${index}.png`],
            ]),
        ),
      ],
    ]),
  );
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Serialises a value as an XML property list (what `plutil -convert xml1` writes). */
export function writeXmlPlist(value: PlistValue): Uint8Array {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" ',
    '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n',
  ];
  const write = (item: PlistValue): void => {
    if (item === null) throw new Error('XML property lists have no null');
    if (typeof item === 'boolean') out.push(item ? '<true/>' : '<false/>');
    else if (typeof item === 'number' && Number.isInteger(item))
      out.push(`<integer>${item}</integer>`);
    else if (typeof item === 'number') out.push(`<real>${item}</real>`);
    else if (typeof item === 'bigint') out.push(`<integer>${item}</integer>`);
    else if (typeof item === 'string') out.push(`<string>${escapeXml(item)}</string>`);
    else if (item instanceof Date)
      out.push(`<date>${item.toISOString().replace(/\.\d+Z$/, 'Z')}</date>`);
    else if (item instanceof Uint8Array)
      out.push(`<data>${btoa(String.fromCharCode(...item))}</data>`);
    else if (Array.isArray(item)) {
      out.push('<array>');
      item.forEach(write);
      out.push('</array>');
    } else if (item instanceof Map) {
      out.push('<dict>');
      for (const [key, entry] of item) {
        out.push(`<key>${escapeXml(key)}</key>`);
        write(entry);
      }
      out.push('</dict>');
    } else {
      throw new Error('writeXmlPlist: UIDs are not written');
    }
  };
  write(value);
  out.push('\n</plist>\n');
  return utf8(out.join(''));
}

/** An XML-plist webarchive whose frames nest `depth` deep (each frame has one subframe). */
export function deepFramesXmlWebarchive(depth: number): Uint8Array {
  // Written as text: the recursive writer would run out of stack on such depths.
  const main = writeXmlPlist(mainResource('<title>Deep</title><p>frame</p>'));
  const mainXml = new TextDecoder()
    .decode(main)
    .replace(/^[\s\S]*<plist version="1.0">\n|\n<\/plist>\n$/g, '');
  const frame = `<dict><key>WebMainResource</key>${mainXml}`;
  const open = `${frame}<key>WebSubframeArchives</key><array>`;
  return utf8(
    `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n${open.repeat(depth)}${frame}` +
      `</dict>${'</array></dict>'.repeat(depth)}\n</plist>\n`,
  );
}

/** An XML-plist webarchive with `count` sibling subframes (each a small dictionary). */
export function manyFramesXmlWebarchive(count: number): Uint8Array {
  const main = mainResource('<title>Many</title><p>frame</p>');
  const frame: PlistDict = new Map<string, PlistValue>([['WebMainResource', main]]);
  return writeXmlPlist(
    new Map<string, PlistValue>([
      ['WebMainResource', main],
      ['WebSubframeArchives', Array.from({ length: count }, () => frame)],
    ]),
  );
}

/** `<plist>` with `depth` nested `<array>` elements. */
export function deepXmlPlist(depth: number): Uint8Array {
  return utf8(`<plist version="1.0">${'<array>'.repeat(depth)}${'</array>'.repeat(depth)}</plist>`);
}

/** A binary plist of `depth` nested one-element arrays (each a distinct object). */
export function deepBplist(depth: number): Uint8Array {
  let value: PlistValue = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return writeBplist(value);
}

/** An HTML page of `depth` nested `<div>`s, text at the bottom (about 11 bytes per level). */
export function nestedDivsHtml(depth = 100_000): Uint8Array {
  return utf8(
    `<!DOCTYPE html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}` +
      `deep text${'</div>'.repeat(depth)}<p>after the divs</p></body></html>`,
  );
}

/** An HTML page whose `<title>` holds `length` characters (`unit` repeated). */
export function hugeTitleHtml(length = 5 * 1024 * 1024, unit = 'a'): Uint8Array {
  const title = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return utf8(
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><p>body</p></body></html>`,
  );
}

/** An MHTML file with an HTML part and `parts` tiny parts (a one-letter boundary). */
export function manyPartsMhtml(parts: number): Uint8Array {
  const head =
    'From: <Saved by Blink>\r\nSubject: Many parts\r\nMIME-Version: 1.0\r\n' +
    'Content-Type: multipart/related; type="text/html"; boundary="b"\r\n\r\n' +
    '--b\r\nContent-Type: text/html\r\n\r\n<title>Many parts</title><p>x</p>\r\n';
  return utf8(`${head}${'--b\r\n\r\nx\r\n'.repeat(parts)}--b--\r\n`);
}

/** An MHTML file whose HTML part has a header block of `bytes` bytes (folded lines). */
export function hugeHeaderMhtml(bytes: number): Uint8Array {
  const line = `X-Padding: ${'p'.repeat(60)}\r\n`;
  const padding = line.repeat(Math.ceil(bytes / line.length));
  return utf8(
    'From: <Saved by Blink>\r\nMIME-Version: 1.0\r\n' +
      'Content-Type: multipart/related; type="text/html"; boundary="b"\r\n\r\n' +
      `--b\r\n${padding}Content-Type: text/html\r\n\r\n<title>Big header</title>\r\n--b--\r\n`,
  );
}
