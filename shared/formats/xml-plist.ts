// A small reader for XML property lists (`<plist version="1.0">…</plist>`), enough for webarchives that
// went through `plutil -convert xml1`. Values map as in bplist.ts.
import { decodeBase64, decodeText } from './bytes.ts';
import type { PlistDict, PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';
import { PLIST_MAX_DEPTH, PLIST_MAX_OBJECTS } from './limits.ts';

const ENTITY = /&(?:#x([0-9a-f]+)|#(\d+)|(lt|gt|amp|quot|apos));/gi;
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function fail(message: string): never {
  throw new FormatError('xml-plist', message);
}

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name) => {
    if (name) return NAMED_ENTITIES[(name as string).toLowerCase()] ?? whole;
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** True when the bytes look like the start of an XML property list. */
export function looksLikeXmlPlist(bytes: Uint8Array): boolean {
  const head = decodeText(bytes.subarray(0, 512)).trimStart();
  return /^(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+plist[^>]*>\s*)?<plist[\s>]/i.test(
    head,
  );
}

/**
 * Parses an XML property list. Throws `FormatError` on malformed input or beyond the limits of
 * limits.ts (values, nesting). XML has no shared objects: the result is a tree.
 */
export function parseXmlPlist(bytes: Uint8Array): PlistValue {
  const text = decodeText(bytes);
  let pos = 0;

  const skipMisc = () => {
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      if (text.startsWith('<?', pos)) {
        const end = text.indexOf('?>', pos);
        if (end === -1) fail('unterminated processing instruction');
        pos = end + 2;
      } else if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos);
        if (end === -1) fail('unterminated comment');
        pos = end + 3;
      } else if (text.startsWith('<!', pos)) {
        const end = text.indexOf('>', pos);
        if (end === -1) fail('unterminated declaration');
        pos = end + 1;
      } else {
        return;
      }
    }
  };

  /** Reads `<name …>`, `<name …/>` or `</name>` at the cursor. */
  const readTag = (): { name: string; closing: boolean; empty: boolean } => {
    skipMisc();
    const match = /^<(\/?)([A-Za-z][\w.-]*)[^>]*?(\/?)>/.exec(text.slice(pos, pos + 256));
    if (!match) fail(`expected a tag at offset ${pos}`);
    pos += match[0].length;
    return { name: match[2]!, closing: match[1] === '/', empty: match[3] === '/' };
  };

  const readText = (name: string): string => {
    const end = text.indexOf(`</${name}>`, pos);
    if (end === -1) fail(`unterminated <${name}>`);
    const raw = text.slice(pos, end);
    if (raw.includes('<')) fail(`markup inside <${name}>`);
    pos = end + name.length + 3;
    return decodeEntities(raw);
  };

  let objects = 0;
  const readValue = (depth: number): PlistValue => {
    if (depth > PLIST_MAX_DEPTH) fail(`nesting too deep (more than ${PLIST_MAX_DEPTH} levels)`);
    if (++objects > PLIST_MAX_OBJECTS) fail(`more than ${PLIST_MAX_OBJECTS} values`);
    const tag = readTag();
    if (tag.closing) fail(`unexpected </${tag.name}>`);
    const content = (name: string) => (tag.empty ? '' : readText(name));
    switch (tag.name) {
      case 'true':
      case 'false':
        if (!tag.empty) readText(tag.name);
        return tag.name === 'true';
      case 'string':
        return content('string');
      case 'integer': {
        const value = content('integer').trim();
        if (!/^[+-]?\d+$/.test(value)) fail(`bad integer "${value.slice(0, 40)}"`);
        const big = BigInt(value);
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(big)
          : big;
      }
      case 'real': {
        const value = content('real').trim().toLowerCase();
        if (value === 'nan') return NaN;
        if (/^[+-]?inf(inity)?$/.test(value)) return value.startsWith('-') ? -Infinity : Infinity;
        const number = Number(value);
        if (value === '' || Number.isNaN(number)) fail(`bad real "${value.slice(0, 40)}"`);
        return number;
      }
      case 'date': {
        const date = new Date(content('date').trim());
        if (Number.isNaN(date.getTime())) fail('bad date');
        return date;
      }
      case 'data':
        return decodeBase64(content('data'));
      case 'array': {
        const array: PlistValue[] = [];
        if (tag.empty) return array;
        for (;;) {
          skipMisc();
          if (text.startsWith('</array>', pos)) {
            pos += '</array>'.length;
            return array;
          }
          array.push(readValue(depth + 1));
        }
      }
      case 'dict': {
        const dict: PlistDict = new Map();
        if (tag.empty) return dict;
        for (;;) {
          skipMisc();
          if (text.startsWith('</dict>', pos)) {
            pos += '</dict>'.length;
            return dict;
          }
          const keyTag = readTag();
          if (keyTag.name !== 'key' || keyTag.closing) fail('expected <key> in <dict>');
          const key = keyTag.empty ? '' : readText('key');
          dict.set(key, readValue(depth + 1));
        }
      }
      default:
        return fail(`unknown element <${tag.name}>`);
    }
  };

  const plist = readTag();
  if (plist.name !== 'plist' || plist.closing || plist.empty) fail('no <plist> root element');
  const value = readValue(0);
  const end = readTag();
  if (end.name !== 'plist' || !end.closing) fail('expected </plist>');
  return value;
}
