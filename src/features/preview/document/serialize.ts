// HTML serialization for the sanitized document. The browser parses the result again, so escaping
// is strict: text never contains `<` and attribute values never contain `"`, `<` or `>`, whatever
// the parent element is. Names that a browser would read differently are refused.

export type Namespace = 'html' | 'svg' | 'math';

/** Elements whose start tag is the whole element in HTML (their content is never parsed). */
export const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** A tag name the HTML tokenizer reads back as the same single name. */
const TAG_NAME = /^[a-zA-Z][^\s/>\0"'<=]*$/;
/** An attribute name the HTML tokenizer reads back as the same single name. */
const ATTRIBUTE_NAME = /^[^\s/>\0"'<=]+$/;

export function isSafeTagName(name: string): boolean {
  return TAG_NAME.test(name);
}

export function isSafeAttributeName(name: string): boolean {
  return ATTRIBUTE_NAME.test(name);
}

export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) =>
    c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : '&gt;',
  );
}

export type Attributes = ReadonlyArray<readonly [name: string, value: string]>;

export function startTag(name: string, attributes: Attributes, selfClosing = false): string {
  let tag = `<${name}`;
  for (const [attribute, value] of attributes) tag += ` ${attribute}="${escapeAttribute(value)}"`;
  return selfClosing ? `${tag}/>` : `${tag}>`;
}
