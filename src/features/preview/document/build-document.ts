// Builds the preview's HTML: parses each archived document with htmlparser2, writes it back through
// the Sanitizer with the security preamble first in <head>, and embeds frames found in the archive
// as nested sanitized documents (srcdoc), with limits on depth, count and size.
import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

import {
  ArchiveIndex,
  decodeHtmlEntry,
  isHtmlEntry,
  type Archive,
  type ArchiveEntry,
} from './archive.ts';
import { PreviewResolver } from './resolver.ts';
import { isElement } from './parsed-nodes.ts';
import type { ResourceTable } from './resources.ts';
import { imageDocument, previewHead } from './preamble.ts';
import { Sanitizer, type DocumentPart } from './sanitize.ts';
import { startTag } from './serialize.ts';
import { DEFAULT_SPLIT_LIMITS, DocumentSplit, type SplitLimits } from './split.ts';
import { resolveUrl } from './urls.ts';

export interface BuildLimits {
  /** How deep frames may nest. */
  maxFrameDepth: number;
  /** How many frame documents one preview may embed (each embedding counts). */
  maxFrames: number;
  /** How many characters of frame documents one preview may embed (each embedding counts). */
  maxFrameChars: number;
  /** When and where a long page is cut into parts (`split.ts`). */
  split?: SplitLimits;
}

export const DEFAULT_LIMITS: BuildLimits = {
  maxFrameDepth: 6,
  maxFrames: 256,
  maxFrameChars: 64 * 1024 * 1024,
};

/** The first `<base href>` resolved against the document URL, as a browser freezes it. */
function findBaseUrl(nodes: readonly ChildNode[], documentUrl: string | null): string | null {
  // Depth-first, in document order, without recursion.
  const stack: ChildNode[] = [...nodes].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (node.name === 'base' && node.attribs.href !== undefined) {
      const url = resolveUrl(node.attribs.href.trim(), documentUrl);
      if (!url || ['data:', 'javascript:', 'vbscript:', 'blob:'].includes(url.protocol))
        return null;
      return url.href;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return null;
}

export class PreviewDocumentBuilder {
  private readonly resolver: PreviewResolver;
  private frames = 0;
  /** How many declarative shadow roots the preview has, in all its documents. */
  shadowRoots = 0;
  private frameChars = 0;
  private readonly frameCache = new Map<ArchiveEntry, string>();

  constructor(
    private readonly archive: Archive,
    private readonly resources: ResourceTable,
    /** The member names of `document` (see `document-members.ts`). */
    private readonly reservedNames: ReadonlySet<string>,
    private readonly limits: BuildLimits = DEFAULT_LIMITS,
    /** Told the main document's first part when a long page is split (`SanitizeContext`). */
    private readonly firstPart?: (html: string) => void,
  ) {
    this.resolver = new PreviewResolver(
      new ArchiveIndex([archive.main, ...archive.entries]),
      resources,
    );
  }

  /** The sanitized HTML of the archive's main document, in parts when it is long (`split.ts`). */
  build(): DocumentPart[] {
    return this.write(this.archive.main, 0, [this.archive.main], true).parts();
  }

  /** The sanitized HTML of a document of the archive, whole (a frame's). */
  private document(entry: ArchiveEntry, depth: number, ancestors: readonly ArchiveEntry[]): string {
    return this.write(entry, depth, ancestors, false).html();
  }

  private write(
    entry: ArchiveEntry,
    depth: number,
    ancestors: readonly ArchiveEntry[],
    maySplit: boolean,
  ): Sanitizer {
    const dom = parseDocument(decodeHtmlEntry(entry));
    const documentUrl = entry.url;
    const baseUrl = findBaseUrl(dom.children, documentUrl) ?? documentUrl;
    const top = dom.children;
    const htmlElement = top.find(
      (node): node is Element => isElement(node) && node.name === 'html',
    );
    const container = htmlElement ? htmlElement.children : top;
    const head = container.find((node): node is Element => isElement(node) && node.name === 'head');
    const body = container.find((node): node is Element => isElement(node) && node.name === 'body');
    const split =
      maySplit && body
        ? DocumentSplit.plan(body, this.resources.nonce, this.limits.split ?? DEFAULT_SPLIT_LIMITS)
        : null;
    const sanitizer = new Sanitizer({
      resolver: this.resolver,
      documentUrl,
      baseUrl,
      frame: (ref) => this.frame(ref, baseUrl, depth, ancestors),
      reservedNames: this.reservedNames,
      shadowRoot: () => void this.shadowRoots++,
      split,
      ...(split && this.firstPart ? { firstPart: this.firstPart } : {}),
    });

    const doctype = top.find((node) => node.type === 'directive' && node.name === '!doctype');
    if (doctype?.type === 'directive' && /^!doctype[^<>]*$/i.test(doctype.data)) {
      sanitizer.write(`<${doctype.data}>`);
    }
    sanitizer.write(
      startTag('html', htmlElement ? sanitizer.attributes(htmlElement, 'html', '') : []),
    );
    sanitizer.write(startTag('head', head ? sanitizer.attributes(head, 'html', 'html') : []));
    sanitizer.write(previewHead(this.resources.partsBase));
    if (head) {
      sanitizer.nodes(head.children, 'html', 'head');
      sanitizer.write('</head>');
    }
    // Without a <head> of its own, the page's leading metadata still lands in ours.
    for (const node of container) {
      if (node !== head && node !== doctype) sanitizer.node(node, 'html', 'html');
    }
    if (htmlElement) {
      sanitizer.write('</html>');
      for (const node of top) {
        if (node !== htmlElement && node !== doctype) sanitizer.node(node, 'html', '');
      }
    }
    return sanitizer;
  }

  private frame(
    ref: string,
    base: string | null,
    depth: number,
    ancestors: readonly ArchiveEntry[],
  ): string | null {
    const entry = this.resolver.frameEntry(ref, base);
    if (!entry || ancestors.includes(entry) || depth + 1 > this.limits.maxFrameDepth) return null;
    if (this.frames >= this.limits.maxFrames || this.frameChars >= this.limits.maxFrameChars) {
      return null;
    }
    let html = this.frameCache.get(entry);
    if (html === undefined) {
      html = isHtmlEntry(entry)
        ? this.document(entry, depth + 1, [...ancestors, entry])
        : imageDocument(this.resources.url(entry, 'image'), this.resources.partsBase);
      this.frameCache.set(entry, html);
    }
    // Every embedding counts, cached or not: 10 000 frames of one archived document would
    // otherwise write its text 10 000 times.
    this.frames++;
    this.frameChars += html.length;
    return html;
  }
}
