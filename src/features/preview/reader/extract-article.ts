// Reader mode's article: Mozilla Readability run on the preview's document (already sanitised by
// the preview worker: no scripts, resources are blob:/data: URLs of the archive's own files), and
// its output rebuilt through a whitelist: Readability returns markup, and what it kept of the
// archived page is still attacker-controlled. Only known elements and attributes are written back;
// images keep a source only when it is one of the archive's (`isArchiveUrl`), links an absolute
// http(s) href or a #fragment (the frame's link policy opens them).
import { isProbablyReaderable, Readability } from '@mozilla/readability';

import { safeHttpUrl } from '../../../lib/urls.ts';
import { escapeText, startTag, VOID_ELEMENTS, type Attributes } from '../document/serialize.ts';

export interface ReaderArticle {
  title: string;
  byline: string | null;
  siteName: string | null;
  /** The article's direction (`rtl` / `ltr`), from Readability, the document or its language. */
  dir: 'rtl' | 'ltr' | null;
  lang: string | null;
  /** Whole minutes at 230 words a minute, at least 1. */
  minutes: number;
  words: number;
  /** The article's body, rebuilt from the whitelist below (safe to put in the reader document). */
  html: string;
}

export interface ExtractOptions {
  /** Whether `url` is one of the archive's resources (a blob: URL the preview made, a data: URL). */
  isArchiveUrl: (url: string) => boolean;
  /** The page's title when the document gives none. */
  fallbackTitle?: string;
  /** Readability's element bound (`maxElemsToParse`); MAX_READER_ELEMENTS by default. */
  maxElements?: number;
}

const XHTML = 'http://www.w3.org/1999/xhtml';
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

function getter<T>(prototype: object, name: string): (target: object) => T {
  const get = Object.getOwnPropertyDescriptor(prototype, name)?.get;
  if (!get) throw new TypeError(`no getter ${name}`);
  return (target) => Reflect.apply(get, target, []) as T;
}

/**
 * The DOM reads of the walk, through the prototypes: what the archived markup names can shadow an
 * element's own properties (`<form><input name="attributes">`). Looked up on first use.
 */
function makeDomReads() {
  return {
    nodeType: getter<number>(Node.prototype, 'nodeType'),
    nodeValue: getter<string | null>(Node.prototype, 'nodeValue'),
    childNodes: getter<NodeListOf<ChildNode>>(Node.prototype, 'childNodes'),
    localName: getter<string>(Element.prototype, 'localName'),
    namespaceURI: getter<string | null>(Element.prototype, 'namespaceURI'),
    attributes: getter<NamedNodeMap>(Element.prototype, 'attributes'),
    attributeName: getter<string>(Attr.prototype, 'name'),
    attributeValue: getter<string>(Attr.prototype, 'value'),
  };
}
let domReads: ReturnType<typeof makeDomReads> | null = null;

/** Past this many elements Readability gives up (it throws) and the page has no reader view. */
export const MAX_READER_ELEMENTS = 100_000;
const WORDS_PER_MINUTE = 230;
/** Readability's `charThreshold`: the text an article has at least, unless the quick test says yes. */
const MIN_ARTICLE_CHARS = 500;
/** Deeper than this, the rest of a branch is left out (the walk is recursive). */
const MAX_DEPTH = 200;

/** Elements written back as they are (with the attributes in ATTRIBUTES). */
const ELEMENTS = new Set([
  'a', 'abbr', 'article', 'aside', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite',
  'code', 'col', 'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption',
  'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol',
  'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'section', 'small', 'span', 'strong', 'sub',
  'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul', 'var',
  'wbr',
]); // prettier-ignore

/** Elements left out with everything in them; any other unknown element is replaced by its content. */
const DROPPED = new Set([
  'script', 'style', 'template', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed',
  'applet', 'form', 'input', 'button', 'select', 'textarea', 'option', 'svg', 'math', 'canvas',
  'audio', 'video', 'source', 'track', 'link', 'meta', 'base', 'head', 'title', 'dialog', 'slot',
]); // prettier-ignore

const GLOBAL_ATTRIBUTES = ['dir', 'lang', 'title', 'id'];
const ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  td: ['colspan', 'rowspan', 'headers'],
  th: ['colspan', 'rowspan', 'headers', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  time: ['datetime'],
  bdo: ['dir'],
};

const RTL_LANGUAGES = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'he',
  'iw',
  'ps',
  'sd',
  'ug',
  'ur',
  'yi',
]);

function direction(value: string | null | undefined): 'rtl' | 'ltr' | null {
  const lower = value?.trim().toLowerCase();
  return lower === 'rtl' || lower === 'ltr' ? lower : null;
}

function directionOfLanguage(lang: string | null): 'rtl' | null {
  const primary = lang?.trim().toLowerCase().split(/[-_]/)[0];
  return primary !== undefined && RTL_LANGUAGES.has(primary) ? 'rtl' : null;
}

function linkHref(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('#')) return trimmed;
  return safeHttpUrl(trimmed);
}

function attributesOf(element: Element, name: string, options: ExtractOptions): Attributes | null {
  const dom = (domReads ??= makeDomReads());
  const kept: Array<[string, string]> = [];
  const allowed = ATTRIBUTES[name] ?? [];
  for (const attribute of Array.from(dom.attributes(element))) {
    const attributeName = dom.attributeName(attribute).toLowerCase();
    if (!GLOBAL_ATTRIBUTES.includes(attributeName) && !allowed.includes(attributeName)) continue;
    let value: string | null = dom.attributeValue(attribute);
    if (attributeName === 'href') value = linkHref(value);
    else if (attributeName === 'src')
      value = options.isArchiveUrl(value.trim()) ? value.trim() : null;
    else if (attributeName === 'dir') value = direction(value) ?? (value === 'auto' ? value : null);
    if (value !== null) kept.push([attributeName, value]);
  }
  // An image without one of the archive's sources is not shown at all (never fetched).
  if (name === 'img' && !kept.some(([attribute]) => attribute === 'src')) return null;
  return kept;
}

function write(node: Node, options: ExtractOptions, depth: number, out: string[]): void {
  const dom = (domReads ??= makeDomReads());
  const type = dom.nodeType(node);
  if (type === TEXT_NODE) {
    out.push(escapeText(dom.nodeValue(node) ?? ''));
    return;
  }
  if (type !== ELEMENT_NODE || depth > MAX_DEPTH) return;
  const element = node as Element;
  const name = dom.localName(element).toLowerCase();
  if (DROPPED.has(name) || dom.namespaceURI(element) !== XHTML) return;
  const children = () => {
    for (const child of Array.from(dom.childNodes(element))) write(child, options, depth + 1, out);
  };
  if (!ELEMENTS.has(name)) {
    children();
    return;
  }
  const attributes = attributesOf(element, name, options);
  if (attributes === null) return;
  out.push(startTag(name, attributes));
  if (VOID_ELEMENTS.has(name)) return;
  children();
  out.push(`</${name}>`);
}

/** The whitelisted markup of `root`'s children. */
export function rebuildArticleHtml(root: Node, options: ExtractOptions): string {
  const dom = (domReads ??= makeDomReads());
  const out: string[] = [];
  for (const child of Array.from(dom.childNodes(root))) write(child, options, 0, out);
  return out.join('');
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

function clean(text: string | null | undefined): string | null {
  const trimmed = text?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
}

export type Extraction =
  | { status: 'article'; article: ReaderArticle }
  | { status: 'none'; reason: 'not-readerable' | 'no-content' | 'too-large' };

/**
 * The article in `doc` (a document of its own: Readability changes it), or why there is none. The
 * parse finds "content" in nearly any page (measured: on every fixture, forms and link lists
 * included), and `isProbablyReaderable` alone misses articles written in short paragraphs: a page
 * is an article when the parse finds text and either the quick test says yes or the text is long
 * enough (500 characters, Readability's own threshold).
 */
export function extractArticle(doc: Document, options: ExtractOptions): Extraction {
  const root = doc.documentElement;
  const docLang = clean(root?.getAttribute('lang'));
  const docDir = direction(root?.getAttribute('dir')) ?? direction(doc.body?.getAttribute('dir'));
  // Before the parse, which changes the document.
  const readerable = isProbablyReaderable(doc);
  let parsed: ReturnType<Readability<Node>['parse']>;
  try {
    parsed = new Readability<Node>(doc, {
      maxElemsToParse: options.maxElements ?? MAX_READER_ELEMENTS,
      serializer: (node) => node,
    }).parse();
  } catch {
    return { status: 'none', reason: 'too-large' };
  }
  const content = parsed?.content;
  if (!parsed || !content) return { status: 'none', reason: 'no-content' };
  const html = rebuildArticleHtml(content, options);
  const text = parsed.textContent ?? content.textContent ?? '';
  const words = countWords(text);
  if (words === 0) return { status: 'none', reason: 'no-content' };
  // The parse always finds something (a form's labels, a link list): below Readability's own
  // article threshold, it is an article only if the quick test says so too.
  if (!readerable && text.trim().length < MIN_ARTICLE_CHARS) {
    return { status: 'none', reason: 'not-readerable' };
  }
  const lang = clean(parsed.lang) ?? docLang;
  return {
    status: 'article',
    article: {
      title: clean(parsed.title) ?? clean(options.fallbackTitle) ?? 'Untitled',
      byline: clean(parsed.byline),
      siteName: clean(parsed.siteName),
      dir: direction(parsed.dir) ?? docDir ?? directionOfLanguage(lang),
      lang,
      words,
      minutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)),
      html,
    },
  };
}

/** `extractArticle` on the preview's HTML, parsed into an inert document of its own. */
export function extractArticleFromHtml(html: string, options: ExtractOptions): Extraction {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return extractArticle(doc, options);
}
