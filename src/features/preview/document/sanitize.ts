// Walks a parsed document (htmlparser2/domhandler) and writes the sanitized HTML. What goes:
// - elements: script, noscript (the page was captured with scripts on, so its noscript fallbacks
//   were never visible; showing them would duplicate lazy images and "enable JavaScript" notices),
//   noembed, noframes, embed, param, base, portal, fencedframe, SVG handler/listener, SMIL
//   animations that target href/src/style, meta refresh/CSP/charset/referrer (any http-equiv but
//   content-language), every <link> (a stylesheet found in the archive becomes an inline <style>);
//   object/applet are replaced by their fallback content; xmp/plaintext become <pre>; framesets
//   become grids of iframes;
// - attributes: on*, srcdoc, action/formaction, target/formtarget, ping, download, autofocus,
//   integrity, nonce, sandbox/allow, referrerpolicy, attributionsrc and the like;
// - URLs: every src/srcset/poster/background/href and CSS url() is rewritten to the archive (see
//   PreviewResolver) or removed; <a>/<area> keep an absolute http(s) href or a #fragment;
// - names: a `name`/`id` on img/form/iframe/frame/embed/object that equals a member of `document`
//   (`addEventListener`, `body`…), which would shadow it (the app calls prototypes anyway);
// Frames get `sandbox="allow-same-origin"` and a `srcdoc` built from the archive only (an empty
// document with the CSP when their source is not in it). Declarative shadow roots are opened: the
// app finds the frames and links inside them (frame/archived-dom.ts walks shadow roots).
import type { ChildNode, Element } from 'domhandler';

import { NAMED_ELEMENTS } from './document-members.ts';
import { isElement } from './parsed-nodes.ts';
import { EMPTY_DOCUMENT } from './preamble.ts';
import type { PreviewResolver } from './resolver.ts';
import { PART_ATTRIBUTE, type DocumentSplit } from './split.ts';
import {
  escapeText,
  isSafeAttributeName,
  isSafeTagName,
  startTag,
  VOID_ELEMENTS,
  type Namespace,
} from './serialize.ts';
import { parseSrcset, resolveUrl, isHttpUrl, serializeSrcset } from './urls.ts';

export interface SanitizeContext {
  resolver: PreviewResolver;
  /** The archived document's own address (for `#fragment` links), if known. */
  documentUrl: string | null;
  /** What relative URLs resolve against: the `<base href>` if any, else the document URL. */
  baseUrl: string | null;
  /** The sanitized HTML of the archived document a frame's `src` points at, or `null`. */
  frame(ref: string): string | null;
  /**
   * The member names of `document` and of a form (see `document-members.ts`): a `name` or `id`
   * equal to one of them on an element that becomes a named property of either is dropped.
   */
  reservedNames: ReadonlySet<string>;
  /** Called for each declarative shadow root written (the app then looks inside shadow roots). */
  shadowRoot(): void;
  /** Where a long page is cut into parts (the main document only), if it is. */
  split?: DocumentSplit | null;
  /**
   * Told the document's first part as soon as it is written (when the first piece begins), before
   * the rest of a long page is: the frame can show it while the worker goes on.
   */
  firstPart?: (html: string) => void;
}

/**
 * A stretch of the written document: part of the document the frame loads (`into: null`), or a
 * piece appended later to the container marked `data-folio-part="<into>"`. In order, the parts
 * make the whole document.
 */
export interface DocumentPart {
  into: string | null;
  html: string;
}

/** Dropped with everything inside, in any namespace. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'noscript',
  'noembed',
  'noframes',
  'embed',
  'param',
  'base',
  'portal',
  'fencedframe',
  'handler',
  'listener',
]);

/** Replaced by their children (the fallback a browser shows when the plugin does not load). */
const UNWRAPPED_ELEMENTS = new Set(['object', 'applet']);

const DROPPED_ATTRIBUTES = new Set([
  'srcdoc',
  'action',
  'formaction',
  'target',
  'formtarget',
  'ping',
  'download',
  'autofocus',
  'nonce',
  'integrity',
  'crossorigin',
  'referrerpolicy',
  'attributionsrc',
  'sandbox',
  'allow',
  'allowfullscreen',
  'allowpaymentrequest',
  'csp',
  'credentialless',
  'browsingtopics',
  'xml:base',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'manifest',
  'profile',
  'codebase',
  'classid',
  'archive',
  'icon',
  'blocking',
  'imagesrcset',
  'imagesizes',
]);

/** Attributes holding URLs; each is kept only where `urlAttribute` knows what it means. */
const URL_ATTRIBUTES = new Set([
  'src',
  'srcset',
  'href',
  'xlink:href',
  'poster',
  'background',
  'cite',
  'usemap',
]);

/** SVG presentation and animation attributes that may hold `url()`. */
const CSS_VALUE_ATTRIBUTES = new Set([
  'fill',
  'stroke',
  'filter',
  'clip-path',
  'mask',
  'marker-start',
  'marker-mid',
  'marker-end',
  'cursor',
  'from',
  'to',
  'by',
  'values',
]);

const BACKGROUND_ELEMENTS = new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);
const SVG_ANIMATIONS = new Set([
  'animate',
  'set',
  'animateMotion',
  'animateTransform',
  'animateColor',
]);
const SVG_HTML_INTEGRATION = new Set(['foreignObject', 'desc', 'title']);
const MATH_HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']);

type Attribute = [name: string, value: string];

/** Nodes to write, in which namespace and parent, and what to write after them. */
interface Children {
  nodes: readonly ChildNode[];
  ns: Namespace;
  parent: string;
  close: string;
  /** For a container whose children from `from` on are written as pieces: its marker. */
  cut?: { marker: string; from: number };
}

/** Framesets nested deeper than this are left out. */
const MAX_FRAMESET_DEPTH = 16;

/** The text of an element's descendants (raw text for `<style>`), without recursion. */
export function textContent(node: { children: ChildNode[] }): string {
  let text = '';
  const stack: ChildNode[] = [...node.children].reverse();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.type === 'text') text += next.data;
    else if (next.type === 'cdata' || isElement(next)) {
      for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
    }
  }
  return text;
}

function isFragment(ref: string): boolean {
  return ref.trim().startsWith('#');
}

function keepMeta(attributes: Record<string, string>): boolean {
  if ('charset' in attributes) return false;
  const equiv = attributes['http-equiv'];
  if (equiv !== undefined) return equiv.trim().toLowerCase() === 'content-language';
  return (attributes.name ?? '').trim().toLowerCase() !== 'referrer';
}

function animatesUrl(element: Element): boolean {
  const target = (element.attribs.attributename ?? '').trim().toLowerCase();
  return /(?:^|:)href$/.test(target) || target === 'src' || target === 'style';
}

/** A frameset's `rows`/`cols` as CSS grid tracks. */
export function frameTracks(value: string | undefined): string {
  const parts = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return 'minmax(0,1fr)';
  return parts
    .map((part) => {
      const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(part);
      if (percent) return `${percent[1]}%`;
      const relative = /^(\d+(?:\.\d+)?)?\s*\*$/.exec(part);
      if (relative) return `minmax(0,${relative[1] ?? '1'}fr)`;
      const pixels = /^(\d+(?:\.\d+)?)/.exec(part);
      return pixels ? `${pixels[1]}px` : 'minmax(0,1fr)';
    })
    .join(' ');
}

/** The namespace of an element's children. */
function childNamespace(ns: Namespace, name: string): Namespace {
  if (ns === 'svg') return SVG_HTML_INTEGRATION.has(name) ? 'html' : 'svg';
  if (ns === 'math') return MATH_HTML_INTEGRATION.has(name) ? 'html' : 'math';
  return 'html';
}

const FRAME_STYLE = 'border:0;width:100%;height:100%;display:block';

export class Sanitizer {
  private readonly written: Array<{ into: string | null; out: string[] }> = [];
  /** Where the HTML goes now: the current part's strings. */
  private out: string[] = [];
  /** How many nodes the current piece has (see `DocumentSplit.partNodes`). */
  private pieceNodes = 0;

  constructor(private readonly context: SanitizeContext) {
    this.divert(null);
  }

  /** The HTML written so far, whole. */
  html(): string {
    return this.written.map(({ out }) => out.join('')).join('');
  }

  /** The HTML written so far, in its parts (a single one unless the page is split). */
  parts(): DocumentPart[] {
    const parts: DocumentPart[] = [];
    for (const { into, out } of this.written) {
      const html = out.join('');
      const last = parts[parts.length - 1];
      if (last && into === null && last.into === null) last.html += html;
      else if (html !== '' || into === null) parts.push({ into, html });
    }
    return parts;
  }

  /** Sends what is written next to a new part (a piece for container `into`, or the document). */
  private divert(into: string | null): void {
    if (into !== null && this.written.length === 1) {
      this.context.firstPart?.(this.written[0]!.out.join(''));
    }
    this.out = [];
    this.written.push({ into, out: this.out });
    this.pieceNodes = 0;
  }

  /** Before the child at `index` of a container cut at `cut`: starts a piece when one is due. */
  private beforeChild(
    cut: NonNullable<Children['cut']>,
    nodes: readonly ChildNode[],
    index: number,
  ) {
    const split = this.context.split;
    const node = nodes[index];
    if (!split || node === undefined || index < cut.from) return;
    if (index === cut.from || this.pieceNodes >= split.partNodes) this.divert(cut.marker);
    this.pieceNodes += split.sizeOf(node);
  }

  write(text: string): void {
    this.out.push(text);
  }

  /** Writes `nodes` and their descendants (with an explicit stack: pages nest 10 000 deep). */
  nodes(nodes: readonly ChildNode[], ns: Namespace, parent: string): void {
    const stack: Array<Children & { index: number }> = [{ nodes, ns, parent, close: '', index: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.cut) this.beforeChild(frame.cut, frame.nodes, frame.index);
      const node = frame.nodes[frame.index++];
      if (node === undefined) {
        stack.pop();
        // A container's pieces end with its content: its end tag is in the document again.
        if (frame.cut && frame.cut.from < frame.nodes.length) this.divert(null);
        this.out.push(frame.close);
        continue;
      }
      const children = this.open(node, frame.ns, frame.parent);
      if (children) stack.push({ ...children, index: 0 });
    }
  }

  node(node: ChildNode, ns: Namespace, parent: string): void {
    this.nodes([node], ns, parent);
  }

  /** Writes what comes before a node's children; returns the children to write next, if any. */
  private open(node: ChildNode, ns: Namespace, parent: string): Children | null {
    if (node.type === 'text') {
      this.out.push(escapeText(node.data));
      return null;
    }
    if (node.type === 'cdata') return { nodes: node.children, ns, parent, close: '' };
    // Comments, doctypes and processing instructions are left out.
    return isElement(node) ? this.element(node, ns, parent) : null;
  }

  private element(element: Element, ns: Namespace, parent: string): Children | null {
    const name = element.name;
    const lower = name.toLowerCase();
    if (DROPPED_ELEMENTS.has(lower)) return null;
    if (UNWRAPPED_ELEMENTS.has(lower) || !isSafeTagName(name)) {
      return { nodes: element.children, ns, parent, close: '' };
    }
    switch (lower) {
      case 'meta':
        if (!keepMeta(element.attribs)) return null;
        break;
      case 'link':
        if (ns === 'html') this.stylesheetLink(element);
        return null;
      case 'style':
        this.style(element, ns);
        return null;
      case 'iframe':
        if (ns === 'html') this.frame(element, []);
        return null;
      case 'frame':
        return null; // only meaningful inside a frameset (handled there)
      case 'frameset':
        if (ns === 'html') this.frameset(element, parent === 'html' || parent === '', 0);
        return null;
      case 'xmp':
      case 'plaintext':
        if (ns === 'html') {
          const attributes = this.attributes(element, ns, parent);
          this.out.push(startTag('pre', attributes), escapeText(textContent(element)), '</pre>');
          return null;
        }
        break;
    }
    if (ns === 'svg' && SVG_ANIMATIONS.has(name) && animatesUrl(element)) return null;

    const ownNs: Namespace =
      ns === 'html' && lower === 'svg' ? 'svg' : ns === 'html' && lower === 'math' ? 'math' : ns;
    const attributes = this.attributes(element, ownNs, parent);
    if (ownNs === 'html' && VOID_ELEMENTS.has(lower)) {
      this.out.push(startTag(name, attributes));
      // A browser would put them after the element anyway.
      return { nodes: element.children, ns, parent, close: '' };
    }
    if (ownNs !== 'html' && element.children.length === 0) {
      this.out.push(startTag(name, attributes, true));
      return null;
    }
    const marker = this.context.split?.markerOf(element);
    const from = this.context.split?.cutOf(element);
    if (marker !== undefined) attributes.push([PART_ATTRIBUTE, marker]);
    this.out.push(startTag(name, attributes));
    return {
      nodes: element.children,
      ns: childNamespace(ownNs, name),
      parent: lower,
      close: `</${name}>`,
      ...(marker !== undefined && from !== undefined ? { cut: { marker, from } } : {}),
    };
  }

  /** The attributes to write for `element` (in namespace `ns`), sanitized and rewritten. */
  attributes(element: Element, ns: Namespace, parent: string): Attribute[] {
    const out: Attribute[] = [];
    const name = element.name;
    const isLink =
      (ns === 'html' && (name === 'a' || name === 'area')) || (ns === 'svg' && name === 'a');
    let rel: string | null = null;
    let hasHref = false;
    for (const [attribute, value] of Object.entries(element.attribs)) {
      const lower = attribute.toLowerCase();
      if (
        !isSafeAttributeName(attribute) ||
        lower.startsWith('on') ||
        DROPPED_ATTRIBUTES.has(lower) ||
        // The app's marker of a long page's parts (split.ts) is the app's to write.
        lower === PART_ATTRIBUTE
      ) {
        continue;
      }
      if (
        (lower === 'name' || lower === 'id') &&
        ns === 'html' &&
        NAMED_ELEMENTS.has(name.toLowerCase()) &&
        this.context.reservedNames.has(value)
      ) {
        continue; // it would shadow a member of `document` or a form (see document-members.ts)
      }
      if (lower === 'style') {
        out.push([
          attribute,
          this.context.resolver.rewriteDeclarations(value, this.context.baseUrl),
        ]);
      } else if (URL_ATTRIBUTES.has(lower)) {
        const rewritten = this.urlAttribute(element, ns, lower, value, parent);
        if (rewritten !== null) {
          out.push([attribute, rewritten]);
          if (isLink && (lower === 'href' || lower === 'xlink:href')) hasHref = true;
        }
      } else if (lower === 'shadowrootmode' || lower === 'shadowroot') {
        // The one way to make a shadow root without scripts. Open, so the app's link interception
        // sees the links and frames inside it; reported, so the app knows to look.
        if (name.toLowerCase() === 'template') {
          out.push([attribute, 'open']);
          this.context.shadowRoot();
        }
      } else if (lower === 'rel' && isLink) {
        rel = value;
      } else if (
        lower === 'autoplay' &&
        (name === 'audio' || (name === 'video' && !('muted' in element.attribs)))
      ) {
        // Sound starting by itself in a preview is unwelcome; muted videos may still play.
      } else if (ns !== 'html' && CSS_VALUE_ATTRIBUTES.has(lower) && /url|\\/i.test(value)) {
        out.push([
          attribute,
          this.context.resolver.rewriteDeclarations(value, this.context.baseUrl),
        ]);
      } else {
        out.push([attribute, value]);
      }
    }
    if (isLink && hasHref) out.push(['rel', `${rel ?? ''} noopener noreferrer`.trim()]);
    else if (rel !== null) out.push(['rel', rel]);
    return out;
  }

  /** The rewritten value of a URL attribute, or `null` to drop it. */
  private urlAttribute(
    element: Element,
    ns: Namespace,
    attribute: string,
    value: string,
    parent: string,
  ): string | null {
    const { resolver, baseUrl, documentUrl } = this.context;
    const name = element.name;
    if (ns === 'svg') {
      if (attribute !== 'href' && attribute !== 'xlink:href') return null;
      if (name === 'a') return resolver.link(value, baseUrl, documentUrl);
      if (isFragment(value)) return value.trim();
      // <use> only refers to the page's own symbols; an external sprite document is dropped.
      return name === 'image' || name === 'feImage' ? resolver.image(value, baseUrl) : null;
    }
    if (ns !== 'html') return null;
    switch (attribute) {
      case 'href':
        return name === 'a' || name === 'area' ? resolver.link(value, baseUrl, documentUrl) : null;
      case 'src':
        if (name === 'img') return resolver.image(value, baseUrl);
        if (name === 'input') {
          return (element.attribs.type ?? '').trim().toLowerCase() === 'image'
            ? resolver.image(value, baseUrl)
            : null;
        }
        if (name === 'video' || name === 'audio' || name === 'track') {
          return resolver.media(value, baseUrl);
        }
        if (name === 'source' && (parent === 'video' || parent === 'audio')) {
          return resolver.media(value, baseUrl);
        }
        return null;
      case 'srcset':
        if (name === 'img' || (name === 'source' && parent === 'picture')) {
          const candidates = parseSrcset(value).flatMap((candidate) => {
            const url = resolver.image(candidate.url, baseUrl);
            return url === null ? [] : [{ url, descriptors: candidate.descriptors }];
          });
          return candidates.length ? serializeSrcset(candidates) : null;
        }
        return null;
      case 'poster':
        return name === 'video' ? resolver.image(value, baseUrl) : null;
      case 'background':
        return BACKGROUND_ELEMENTS.has(name) ? resolver.image(value, baseUrl) : null;
      case 'cite': {
        const url = resolveUrl(value.trim(), baseUrl);
        return url && isHttpUrl(url) ? url.href : null;
      }
      case 'usemap':
        return isFragment(value) ? value.trim() : null;
      default:
        return null;
    }
  }

  /**
   * A stylesheet link as a <style> with the archived stylesheet inlined (imports included): the
   * app's CSP, which srcdoc frames inherit, allows inline styles but no blob: stylesheets.
   */
  private stylesheetLink(element: Element): void {
    const rel = (element.attribs.rel ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    const href = element.attribs.href;
    // Alternate stylesheets are off until the reader picks them, which a preview cannot do.
    if (!href || !rel.includes('stylesheet') || rel.includes('alternate')) return;
    if ('disabled' in element.attribs) return;
    const css = this.context.resolver.stylesheet(href, this.context.baseUrl);
    if (css === null) return;
    const attributes: Attribute[] = [];
    for (const kept of ['media', 'title']) {
      const value = element.attribs[kept];
      if (value !== undefined) attributes.push([kept, value]);
    }
    this.out.push(startTag('style', attributes), css, '</style>');
  }

  private style(element: Element, ns: Namespace): void {
    const css = this.context.resolver.rewriteStylesheet(textContent(element), this.context.baseUrl);
    const attributes = this.attributes(element, ns, '');
    // In HTML, <style> is raw text (the rewritten CSS never contains markup); in SVG it is parsed.
    this.out.push(startTag('style', attributes), ns === 'html' ? css : escapeText(css), '</style>');
  }

  private frame(element: Element, extra: Attribute[]): void {
    const overridden = new Set(extra.map(([name]) => name));
    const attributes = this.attributes(element, 'html', '').filter(
      ([name]) => !overridden.has(name),
    );
    const src = element.attribs.src;
    // A frame whose source is not in the archive shows an empty document that has the CSP too.
    const document = (src ? this.context.frame(src) : null) ?? EMPTY_DOCUMENT;
    attributes.push(
      ...extra,
      ['sandbox', 'allow-same-origin'],
      ['referrerpolicy', 'no-referrer'],
      ['srcdoc', document],
    );
    this.out.push(startTag('iframe', attributes), '</iframe>');
  }

  /** A frameset as a CSS grid of sandboxed iframes (srcdoc only works on iframes). */
  private frameset(element: Element, top: boolean, depth: number): void {
    if (depth > MAX_FRAMESET_DEPTH) return;
    if (top) this.out.push('<body style="margin:0;height:100vh">');
    const style =
      'display:grid;width:100%;height:100%;' +
      `grid-template-rows:${frameTracks(element.attribs.rows)};` +
      `grid-template-columns:${frameTracks(element.attribs.cols)}`;
    this.out.push(startTag('div', [['style', style]]));
    for (const child of element.children) {
      if (!isElement(child)) continue;
      if (child.name === 'frameset') this.frameset(child, false, depth + 1);
      else if (child.name === 'frame') this.frame(child, [['style', FRAME_STYLE]]);
    }
    this.out.push('</div>');
    if (top) this.out.push('</body>');
  }
}
