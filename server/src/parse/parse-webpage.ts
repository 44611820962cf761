// Reads an uploaded webpage (html, mhtml or webarchive) into the fields the archive stores and
// indexes. The HTML is streamed through htmlparser2 in decoded chunks, so a huge file costs about
// one extra copy of itself at most, and parsing stops once the text budget is spent. Elements
// nested deeper than MAX_HTML_DEPTH are flattened, so each costs the parser a bounded amount.
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import {
  createChunkDecoder,
  detectBom,
  normalizeCharset,
  sniffHtmlCharset,
} from '../../../shared/formats/bytes.ts';
import { FormatError } from '../../../shared/formats/errors.ts';
import { parseMhtmlStructure, readMhtmlStructure } from '../../../shared/formats/mhtml.ts';
import { writeMhtmlIndex } from '../../../shared/formats/mhtml-index.ts';
import { parseWebarchive } from '../../../shared/formats/webarchive.ts';
import {
  MAX_EXCERPT_LENGTH,
  MAX_TITLE_LENGTH,
  truncateText,
} from '../../../shared/webpage-fields.ts';
import { ParseError } from './parse-error.ts';

export type WebpageExt = 'html' | 'mhtml' | 'webarchive';

export interface ParsedWebpage {
  /**
   * `<title>`, else `og:title`, else (mhtml) the MIME Subject, else the first `<h1>`'s text, else
   * `''`; whitespace collapsed, at most `MAX_TITLE_LENGTH` (shared/webpage-fields.ts).
   */
  title: string;
  /**
   * `<meta name=description>`, else `og:description`, else the start of the text; at most
   * `MAX_EXCERPT_LENGTH`.
   */
  excerpt: string;
  /**
   * The page's absolute http(s) URL: the saver's own record (MHTML `Snapshot-Content-Location`,
   * then the main part's `Content-Location`; the webarchive's main resource URL; SingleFile's
   * header comment; Chrome's and IE's `saved from url` comment), else `<link rel=canonical>`, else
   * `og:url`, else `null`.
   */
  link: string | null;
  /**
   * When the page was captured (epoch ms): the MHTML `Date:` header or SingleFile's `saved date:`,
   * else `null`.
   */
  createTime: number | null;
  /** Readable text: whitespace collapsed, at most `MAX_TEXT_LENGTH` characters. */
  text: string;
  /**
   * An MHTML file's index of parts (`writeMhtmlIndex`), kept with the page for its preview;
   * absent for other files, and for an index too long to keep.
   */
  partIndex?: string;
}

export const MAX_TEXT_LENGTH = 2_000_000;
const EXCERPT_LENGTH = 200;
/**
 * Elements nested deeper than this are flattened: read as if they were empty, their content
 * following them as siblings (Chromium's parser likewise stops nesting at 512). htmlparser2 keeps
 * the open elements in an array it shifts and unshifts, so opening or closing an element costs as
 * much as its depth: 100,000 nested `<div>`s (1 MB) took 5 to 14 s before this bound.
 */
export const MAX_HTML_DEPTH = 512;
const SAMPLE_BYTES = 64 * 1024;
const CHUNK_BYTES = 1 << 20;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Contents never shown as text. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe']);

/** Elements that separate words. */
const BLOCKS = new Set(
  (
    'address article aside audio blockquote body br button caption dd details dialog div dl dt ' +
    'fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html img input ' +
    'legend li main nav ol option p picture pre section select summary table tbody td textarea ' +
    'tfoot th thead title tr ul video'
  ).split(' '),
);

/** Element names that prove a file is HTML rather than text with a stray `<`. */
const HTML_ELEMENTS = new Set([
  ...BLOCKS,
  ...SKIPPED,
  ...(
    'a abbr b base bdi bdo canvas center cite code col colgroup data datalist del dfn em embed ' +
    'font frame frameset i ins kbd label link map mark menu meta meter object optgroup output ' +
    'param progress q rp rt ruby s samp search slot small source span strong sub sup time track ' +
    'u var wbr'
  ).split(' '),
]);

const WHITESPACE = /\s+/g;

function collapse(text: string): string {
  return text.replace(WHITESPACE, ' ').trim();
}

/**
 * A text field (title, description) from attacker-sized text: whitespace collapsed, at most `max`
 * code units, cut at a code-point boundary. Only the first `4 × max` units are looked at.
 */
function field(text: string, max: number): string {
  return truncateText(collapse(truncateText(text, max * 4)), max).trimEnd();
}

/** The URL when it is an absolute http(s) URL, normalised; else `null`. */
function httpUrl(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Parses SingleFile's `saved date:` (`Date#toString()` output) to epoch ms. */
function parseSavedDate(value: string): number | null {
  const time = Date.parse(value.replace(/\s*\([^)]*\)\s*$/, '').trim());
  return Number.isFinite(time) ? time : null;
}

/**
 * The first line of SingleFile's header comment (`COMMENT_HEADER` and `COMMENT_HEADER_LEGACY` in
 * single-file-core). SingleFile inserts the comment as the first child of `<html>`:
 * `<html><!--\n Page saved with SingleFile \n url: … \n saved date: …\n--><head>`.
 */
const SINGLE_FILE_HEADER = /^\s*(?:Page saved with SingleFile|Archive processed by SingleFile)\b/;
const SINGLE_FILE_URL = /^\s*url:\s*(\S+)\s*$/m;
const SINGLE_FILE_DATE = /^\s*saved date:\s*(.+?)\s*$/m;
/**
 * The "mark of the web" Chrome ("Save as, Webpage complete") and Internet Explorer write near the
 * top: `<!-- saved from url=(0042)https://… -->`, the number being the URL's length.
 */
const SAVED_FROM_URL = /^\s*saved from url=\((\d{4})\)(\S+)/;

/** Elements of the head area: the saver's comments are read until any other element opens. */
const HEAD_AREA = new Set([
  'html',
  'head',
  'meta',
  'title',
  'link',
  'base',
  'style',
  'script',
  'noscript',
  'template',
]);

/** The first ~200 characters of `text`, cut at a word boundary, with an ellipsis when cut. */
export function excerptOf(text: string): string {
  if (text.length <= EXCERPT_LENGTH) return text;
  let cut = text.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(' ');
  if (space > EXCERPT_LENGTH / 2) cut = cut.slice(0, space);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1); // never split a surrogate pair
  return `${cut.replace(/[\s,;:.\-–—]+$/, '')}…`;
}

interface HtmlFacts {
  title: string;
  ogTitle: string | null;
  description: string | null;
  ogDescription: string | null;
  canonical: string | null;
  ogUrl: string | null;
  singleFileUrl: string | null;
  savedFromUrl: string | null;
  savedDate: number | null;
  /** The first `<h1>`'s text, collapsed; `''` without one. */
  h1: string;
  text: string;
  sawHtmlElement: boolean;
}

/** Picks the charset: BOM, then the container's declaration, then `<meta>`, then a UTF-8 check. */
function resolveCharset(bytes: Uint8Array, declared: string | null): string {
  const bom = detectBom(bytes);
  if (bom) return bom.encoding;
  const fromContainer = normalizeCharset(declared);
  if (fromContainer) return fromContainer;
  const fromMeta = sniffHtmlCharset(bytes);
  if (fromMeta) return fromMeta;
  try {
    // Streaming mode so a sequence cut by the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, SAMPLE_BYTES), {
      stream: true,
    });
    return 'utf-8';
  } catch {
    return 'windows-1252'; // what browsers assume for unlabelled legacy pages
  }
}

/** Rejects binary data: NUL bytes, or many control or undecodable characters near the start. */
function assertTextual(bytes: Uint8Array, charset: string): void {
  const sample = createChunkDecoder(charset)(bytes.subarray(0, SAMPLE_BYTES), false);
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) throw new ParseError('the file contains NUL bytes: it is not an HTML document');
    if (
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) ||
      code === 0x7f ||
      code === 0xfffd
    ) {
      bad++;
    }
  }
  if (bad > 2 && bad > sample.length / 100) {
    throw new ParseError('the file looks like binary data, not an HTML document');
  }
}

/** Elements whose content the tokenizer reads as text up to their end tag: they hold no elements. */
const RAW_TEXT = new Set([
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
]);

/** What DepthBoundedParser uses of htmlparser2's Parser beyond its typed API. */
interface ParserInternals {
  readTagName?: (start: number, endIndex: number) => string;
}

/**
 * htmlparser2's Parser with a bounded stack of open elements: an element that would open deeper
 * than `MAX_HTML_DEPTH` is treated as a void element (opened and closed at once, through the
 * parser's `isVoidElement` extension point), so the stack never holds more than
 * `MAX_HTML_DEPTH + 1` elements. At the limit a raw-text element (script, style, title…) still
 * opens, so its content stays what it is (its end tag closes it; it cannot hold elements).
 * An end tag that closes nothing (no open element of its name) is skipped: htmlparser2 would look
 * for it through every open element, 512 comparisons for each stray `</a>` (1 MB of them took a
 * second, 10 MB eight).
 */
export class DepthBoundedParser extends Parser {
  /** Open elements, counted from the events (every open tag is followed by its close event). */
  private readonly open: { depth: number; names: Map<string, number> };
  /** The handler as given to the parser (counting open elements). */
  private readonly events: Partial<Handler>;
  /** Whether the open tag being read is flattened; decided on its first `isVoidElement` call. */
  private flattened: boolean | undefined;

  constructor(handler: Partial<Handler>, options: ParserOptions) {
    const open = { depth: 0, names: new Map<string, number>() };
    const events: Partial<Handler> = {
      ...handler,
      onopentagname(name) {
        open.depth++;
        open.names.set(name, (open.names.get(name) ?? 0) + 1);
        handler.onopentagname?.(name);
      },
      onclosetag(name, isImplied) {
        open.depth--;
        const count = open.names.get(name) ?? 0;
        if (count > 1) open.names.set(name, count - 1);
        else open.names.delete(name);
        handler.onclosetag?.(name, isImplied);
      },
    };
    super(events, options);
    this.open = open;
    this.events = events;
  }

  override onopentagname(start: number, endIndex: number): void {
    this.flattened = undefined;
    super.onopentagname(start, endIndex);
  }

  override onclosetag(start: number, endIndex: number): void {
    this.flattened = false;
    // The name as the parser reads it (lowercased, SVG-adjusted), through its own (private) reader.
    const readTagName = (this as unknown as ParserInternals).readTagName;
    if (typeof readTagName === 'function') {
      const name = readTagName.call(this, start, endIndex);
      if (!this.open.names.has(name) && name !== 'br') {
        // A stray `</p>` is an empty paragraph, as htmlparser2 reads it (it would push it onto
        // the open elements, which costs their number); any other closes nothing.
        if (name === 'p') {
          this.events.onopentagname?.('p');
          this.events.onopentag?.('p', {}, true);
          this.events.onclosetag?.('p', false);
        }
        this.endIndex = endIndex;
        this.startIndex = endIndex + 1;
        return;
      }
    }
    super.onclosetag(start, endIndex);
  }

  protected override isVoidElement(name: string): boolean {
    if (super.isVoidElement(name)) return true;
    // An ignored open tag (a second <form>) is named "" and opens nothing.
    if (name === '') return false;
    this.flattened ??=
      this.open.depth > MAX_HTML_DEPTH ||
      (this.open.depth === MAX_HTML_DEPTH && !RAW_TEXT.has(name));
    return this.flattened;
  }
}

function readHtml(bytes: Uint8Array, charset: string): HtmlFacts {
  const facts: HtmlFacts = {
    title: '',
    ogTitle: null,
    description: null,
    ogDescription: null,
    canonical: null,
    ogUrl: null,
    singleFileUrl: null,
    savedFromUrl: null,
    savedDate: null,
    h1: '',
    text: '',
    sawHtmlElement: false,
  };
  const textParts: string[] = [];
  let textLength = 0;
  let lastWasSpace = true;
  let skipDepth = 0;
  // Mutable parse state in an object so TypeScript does not narrow it across the callbacks.
  const state = {
    title: 'before' as 'before' | 'inside' | 'done',
    titleText: '',
    h1: 'before' as 'before' | 'inside' | 'done',
    h1Text: '',
    sawBody: false,
    /** Still in the head area: no element other than html, head and head content opened yet. */
    headArea: true,
  };

  const textFull = () => textLength >= MAX_TEXT_LENGTH;
  const separate = () => {
    if (!lastWasSpace && !textFull()) {
      textParts.push(' ');
      textLength += 1;
      lastWasSpace = true;
    }
  };

  const parser = new DepthBoundedParser(
    {
      onopentag(name, attributes) {
        if (!HEAD_AREA.has(name)) state.headArea = false;
        if (!facts.sawHtmlElement && HTML_ELEMENTS.has(name)) facts.sawHtmlElement = true;
        if (SKIPPED.has(name)) {
          skipDepth++;
          return;
        }
        if (skipDepth > 0) return;
        if (name === 'body') state.sawBody = true;
        if (name === 'h1' && state.h1 === 'before') state.h1 = 'inside';
        if (name === 'title' && state.title === 'before') {
          state.title = 'inside';
        } else if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
          const content = attributes.content;
          if (content !== undefined) {
            if (key === 'description' && facts.description === null) {
              facts.description = field(content, MAX_EXCERPT_LENGTH);
            } else if (key === 'og:description' && facts.ogDescription === null) {
              facts.ogDescription = field(content, MAX_EXCERPT_LENGTH);
            } else if (key === 'og:title' && facts.ogTitle === null) {
              facts.ogTitle = field(content, MAX_TITLE_LENGTH);
            } else if (key === 'og:url' && facts.ogUrl === null) {
              facts.ogUrl = content;
            }
          }
        } else if (name === 'link' && facts.canonical === null) {
          const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
          if (rel.includes('canonical') && attributes.href) facts.canonical = attributes.href;
        }
        if (BLOCKS.has(name)) separate();
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) {
          if (skipDepth > 0) skipDepth--;
          return;
        }
        if (skipDepth > 0) return;
        if (name === 'title' && state.title === 'inside') state.title = 'done';
        if (name === 'h1' && state.h1 === 'inside') state.h1 = 'done';
        if (BLOCKS.has(name)) separate();
      },
      ontext(data) {
        if (skipDepth > 0) return;
        if (state.title === 'inside') {
          // Collapsed as it comes, and only until the title is full: a 5 MB title costs no more
          // than a short one.
          if (state.titleText.length <= MAX_TITLE_LENGTH) {
            let piece = data.replace(WHITESPACE, ' ');
            if (
              piece.startsWith(' ') &&
              (state.titleText === '' || state.titleText.endsWith(' '))
            ) {
              piece = piece.slice(1);
            }
            state.titleText += piece.slice(0, MAX_TITLE_LENGTH + 1 - state.titleText.length);
          }
          return;
        }
        if (state.h1 === 'inside' && state.h1Text.length <= MAX_TITLE_LENGTH * 4) {
          state.h1Text += data.slice(0, MAX_TITLE_LENGTH * 4 + 1 - state.h1Text.length);
        }
        if (textFull()) return;
        let piece = data.replace(WHITESPACE, ' ');
        if (lastWasSpace && piece.startsWith(' ')) piece = piece.slice(1);
        if (!piece) return;
        if (textLength + piece.length > MAX_TEXT_LENGTH) {
          piece = piece.slice(0, MAX_TEXT_LENGTH - textLength);
        }
        textParts.push(piece);
        textLength += piece.length;
        lastWasSpace = piece.endsWith(' ');
      },
      oncomment(data) {
        // The savers' records stand in the head area: SingleFile's as <html>'s first child,
        // Chrome's and IE's before or after <html>. A comment in the body is the page's own.
        if (!state.headArea || skipDepth > 0) return;
        if (SINGLE_FILE_HEADER.test(data)) {
          const url = SINGLE_FILE_URL.exec(data);
          if (url && facts.singleFileUrl === null) facts.singleFileUrl = url[1]!;
          const saved = SINGLE_FILE_DATE.exec(data);
          if (saved && facts.savedDate === null) facts.savedDate = parseSavedDate(saved[1]!);
          return;
        }
        const savedFrom = SAVED_FROM_URL.exec(data);
        if (savedFrom && facts.savedFromUrl === null) {
          // The declared length bounds the URL (IE wrote nothing after it, Chrome a space).
          facts.savedFromUrl = savedFrom[2]!.slice(0, Number(savedFrom[1]));
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  const decode = createChunkDecoder(charset);
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    const end = Math.min(bytes.length, start + CHUNK_BYTES);
    parser.write(decode(bytes.subarray(start, end), end === bytes.length));
    // Metadata lives in <head>; once the body started and the text is full, the rest is noise.
    if (textFull() && state.sawBody && state.title !== 'inside') break;
  }
  parser.end();

  facts.title = field(state.titleText, MAX_TITLE_LENGTH);
  facts.h1 = field(state.h1Text, MAX_TITLE_LENGTH);
  facts.text = textParts.join('').trim();
  return facts;
}

function summarize(
  facts: HtmlFacts,
  extra: { title?: string | null; links?: Array<string | null>; createTime?: number | null },
): ParsedWebpage {
  const title =
    facts.title || facts.ogTitle || field(extra.title ?? '', MAX_TITLE_LENGTH) || facts.h1;
  const excerpt = facts.description || facts.ogDescription || excerptOf(facts.text);
  // The saver's own record first, then what the page says about itself.
  const candidates = [
    ...(extra.links ?? []),
    facts.singleFileUrl,
    facts.savedFromUrl,
    facts.canonical,
    facts.ogUrl,
  ];
  let link: string | null = null;
  for (const candidate of candidates) {
    link = httpUrl(candidate);
    if (link) break;
  }
  return {
    title,
    excerpt,
    link,
    createTime: extra.createTime ?? facts.savedDate,
    text: facts.text,
  };
}

function parseHtmlFile(bytes: Uint8Array): ParsedWebpage {
  if (bytes.length === 0) throw new ParseError('the file is empty');
  const charset = resolveCharset(bytes, null);
  assertTextual(bytes, charset);
  const facts = readHtml(bytes, charset);
  if (!facts.sawHtmlElement) throw new ParseError('the file contains no HTML elements');
  return summarize(facts, {});
}

function parseMhtmlFile(bytes: Uint8Array): ParsedWebpage {
  // Only the HTML is read: the images and styles, most of the bytes, are not decoded.
  const structure = readMhtmlStructure(bytes);
  const archive = parseMhtmlStructure(bytes, structure, { parts: 'main' });
  if (archive.truncated) throw new ParseError(`the file is truncated: ${archive.truncated}`);
  const html = archive.main.body;
  const facts = readHtml(html, resolveCharset(html, archive.main.charset));
  const parsed = summarize(facts, {
    title: archive.subject,
    links: [archive.snapshotLocation, archive.main.contentLocation],
    createTime: archive.date,
  });
  const partIndex = writeMhtmlIndex(structure, bytes.length);
  return partIndex === null ? parsed : { ...parsed, partIndex };
}

function parseWebarchiveFile(bytes: Uint8Array): ParsedWebpage {
  const archive = parseWebarchive(bytes);
  const main = archive.mainResource;
  if (!HTML_TYPES.has(main.mimeType)) {
    throw new ParseError(`the main resource is ${main.mimeType || 'untyped'}, not HTML`);
  }
  const facts = readHtml(main.data, resolveCharset(main.data, main.textEncoding));
  return summarize(facts, { links: [main.url] });
}

/**
 * Extracts title, excerpt, link, capture time and text from an uploaded file of the declared kind.
 * Throws `ParseError` when the bytes are not such a file (the API's E0001).
 */
export function parseWebpage(bytes: Uint8Array, ext: WebpageExt): ParsedWebpage {
  try {
    switch (ext) {
      case 'html':
        return parseHtmlFile(bytes);
      case 'mhtml':
        return parseMhtmlFile(bytes);
      case 'webarchive':
        return parseWebarchiveFile(bytes);
      default:
        throw new ParseError(`unsupported file type ${String(ext)}`);
    }
  } catch (error) {
    if (error instanceof FormatError) throw new ParseError(error.message, { cause: error });
    throw error;
  }
}
