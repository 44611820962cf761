// Every DOM call the app makes on an archived document or one of its elements, made through the
// prototypes of the app's own realm. The archived markup controls its objects' own and named
// properties: `<img name="querySelectorAll">` makes `document.querySelectorAll` an element,
// `<form><input name="localName">` makes `form.localName` one, `<div id="addEventListener">` shadows
// `window.addEventListener`. A prototype's function or getter, called with the object as `this`,
// is what the browser implements, whatever the page named; WebIDL methods accept objects of the
// same interface from another same-origin realm (the preview frames), so one set serves them all.

const XHTML = 'http://www.w3.org/1999/xhtml';

type Method<This, Args extends unknown[], Result> = (this: This, ...args: Args) => Result;

/**
 * `prototype[name]`, called on the object given as `this`. Looked up in the app's realm, which no
 * archived page can reach, once (or at every call with `cache: false`, for what tests replace).
 */
function method<This, Args extends unknown[], Result>(
  prototype: object,
  name: string,
  { cache = true } = {},
): Method<This, Args, Result> {
  let found: ((...args: unknown[]) => unknown) | undefined;
  return function (this: This, ...args: Args): Result {
    let value: unknown = found;
    if (value === undefined) {
      value = Reflect.get(prototype, name);
      if (typeof value !== 'function') throw new TypeError(`no method ${name}`);
      if (cache) found = value as (...args: unknown[]) => unknown;
    }
    return Reflect.apply(value as (...args: unknown[]) => unknown, this, args) as Result;
  };
}

function getter<This, Result>(prototype: object, name: string): (this: This) => Result {
  let found: (() => unknown) | undefined;
  return function (this: This): Result {
    found ??= Object.getOwnPropertyDescriptor(prototype, name)?.get;
    if (!found) throw new TypeError(`no getter ${name}`);
    return Reflect.apply(found, this, []) as Result;
  };
}

const addListener = method<EventTarget, Parameters<EventTarget['addEventListener']>, void>(
  EventTarget.prototype,
  'addEventListener',
);
const removeListener = method<EventTarget, Parameters<EventTarget['removeEventListener']>, void>(
  EventTarget.prototype,
  'removeEventListener',
);
const nodeTypeOf = getter<Node, number>(Node.prototype, 'nodeType');
const localNameOf = getter<Element, string>(Element.prototype, 'localName');
const namespaceOf = getter<Element, string | null>(Element.prototype, 'namespaceURI');
const shadowRootOf = getter<Element, ShadowRoot | null>(Element.prototype, 'shadowRoot');
const getAttributeOf = method<Element, [string], string | null>(Element.prototype, 'getAttribute');
const getAttributeNSOf = method<Element, [string | null, string], string | null>(
  Element.prototype,
  'getAttributeNS',
);
const scrollIntoViewOf = method<Element, [], void>(Element.prototype, 'scrollIntoView', {
  cache: false,
});
const querySelectorAllOf = method<Document, [string], NodeListOf<Element>>(
  Document.prototype,
  'querySelectorAll',
);
const getElementByIdOf = method<Document, [string], Element | null>(
  Document.prototype,
  'getElementById',
);
const getElementsByNameOf = method<Document, [string], NodeListOf<HTMLElement>>(
  Document.prototype,
  'getElementsByName',
);
const documentElementOf = getter<Document, Element | null>(Document.prototype, 'documentElement');
const createTreeWalkerOf = method<Document, [Node, number], TreeWalker>(
  Document.prototype,
  'createTreeWalker',
);
const nextNodeOf = method<TreeWalker, [], Node | null>(TreeWalker.prototype, 'nextNode');
const contentDocumentOf = getter<HTMLIFrameElement, Document | null>(
  HTMLIFrameElement.prototype,
  'contentDocument',
);
const listItem = method<NodeList, [number], Node | null>(NodeList.prototype, 'item');
const listLength = getter<NodeList, number>(NodeList.prototype, 'length');
const querySelectorOf = method<Document, [string], Element | null>(
  Document.prototype,
  'querySelector',
);
const bodyOf = getter<Document, HTMLElement | null>(Document.prototype, 'body');
const createElementOf = method<Document, [string], Element>(Document.prototype, 'createElement');
const removeAttributeOf = method<Element, [string], void>(Element.prototype, 'removeAttribute');
const childNodesOf = getter<Node, NodeListOf<ChildNode>>(Node.prototype, 'childNodes');
const appendOf = method<Element, Node[], void>(Element.prototype, 'append');
const ownerDocumentOf = getter<Node, Document | null>(Node.prototype, 'ownerDocument');

export function on(
  target: EventTarget,
  type: string,
  listener: EventListener,
  capture: boolean,
): () => void {
  addListener.call(target, type, listener, capture);
  return () => removeListener.call(target, type, listener, capture);
}

/** Whether an event target is an element (a frame's nodes fail the app realm's `instanceof`). */
export function isElement(target: EventTarget): target is Element {
  try {
    return nodeTypeOf.call(target as Node) === Node.ELEMENT_NODE;
  } catch {
    return false; // not a node: a window
  }
}

export function localName(element: Element): string {
  return localNameOf.call(element);
}

export function getAttribute(element: Element, name: string): string | null {
  return getAttributeOf.call(element, name);
}

export function getAttributeNS(element: Element, ns: string, name: string): string | null {
  return getAttributeNSOf.call(element, ns, name);
}

export function scrollIntoView(element: Element): void {
  scrollIntoViewOf.call(element);
}

export function getElementById(doc: Document, id: string): Element | null {
  return getElementByIdOf.call(doc, id);
}

export function firstElementNamed(doc: Document, name: string): Element | null {
  const list = getElementsByNameOf.call(doc, name);
  return listLength.call(list) > 0 ? (listItem.call(list, 0) as Element | null) : null;
}

/** The document's root element, where scrolling to the top starts. */
export function rootElement(doc: Document): Element | null {
  return documentElementOf.call(doc);
}

export function contentDocument(frame: HTMLIFrameElement): Document | null {
  return contentDocumentOf.call(frame);
}

/**
 * Every `<iframe>` of a document; with `shadowRoots`, inside its shadow roots too (declarative
 * shadow roots are open: the sanitizer makes them so), in tree order, without recursion. Walking
 * shadow roots visits every element, so it is done only for documents that may have them.
 */
export function framesOf(
  doc: Document,
  shadowRoots: boolean,
  /** Where to look: the whole document by default, or a node of it and its subtree. */
  within: Node = doc,
): HTMLIFrameElement[] {
  const found: HTMLIFrameElement[] = [];
  if (within === doc && !shadowRoots) {
    const list = querySelectorAllOf.call(doc, 'iframe');
    for (let index = 0; index < listLength.call(list); index++) {
      found.push(listItem.call(list, index) as HTMLIFrameElement);
    }
    return found;
  }
  const roots: Node[] = [];
  const visit = (node: Node) => {
    if (nodeTypeOf.call(node) !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    if (localNameOf.call(element) === 'iframe' && namespaceOf.call(element) === XHTML) {
      found.push(element as HTMLIFrameElement);
    }
    const shadow = shadowRoots ? shadowRootOf.call(element) : null;
    if (shadow) roots.push(shadow);
  };
  // A walker does not return its root: a node looked in is looked at too (its own tree first).
  if (within !== doc) visit(within);
  roots.push(within);
  for (let root = roots.pop(); root !== undefined; root = roots.pop()) {
    const walker = createTreeWalkerOf.call(doc, root, NodeFilter.SHOW_ELEMENT);
    for (let node = nextNodeOf.call(walker); node !== null; node = nextNodeOf.call(walker)) {
      visit(node);
    }
  }
  return found;
}

/** The element of `doc` whose `name` attribute is `value` (a value of letters, digits and `-`). */
export function elementWithAttribute(doc: Document, name: string, value: string): Element | null {
  return querySelectorOf.call(doc, `[${name}="${value}"]`);
}

export function body(doc: Document): HTMLElement | null {
  return bodyOf.call(doc);
}

export function removeAttribute(element: Element, name: string): void {
  removeAttributeOf.call(element, name);
}

/**
 * Parses `html` as the content of an element like `container` (same name, same document: the
 * context the parser would have had in place), declarative shadow roots included, and appends the
 * nodes to `container`. The content is parsed in an element that is not in the document, so the
 * container changes once, with all of it.
 */
export function appendHtml(container: Element, html: string): void {
  const doc = ownerDocumentOf.call(container);
  if (!doc) return;
  const context = createElementOf.call(doc, localNameOf.call(container));
  const setHtmlUnsafe = Reflect.get(Element.prototype, 'setHTMLUnsafe') as unknown;
  if (typeof setHtmlUnsafe === 'function') {
    Reflect.apply(setHtmlUnsafe, context, [html]);
  } else {
    // Without declarative shadow roots (an engine that predates them; jsdom).
    const setInner = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML')?.set;
    if (!setInner) throw new TypeError('no innerHTML setter');
    Reflect.apply(setInner, context, [html]);
  }
  const list = childNodesOf.call(context);
  const nodes: Node[] = [];
  for (let index = 0; index < listLength.call(list); index++)
    nodes.push(listItem.call(list, index)!);
  appendOf.call(container, ...nodes);
}
