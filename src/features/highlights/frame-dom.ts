// The DOM calls the highlight layer makes on a frame's (archived) document, through the prototypes
// of the app's realm: the archived markup controls its objects' own and named properties
// (`<img name="body">` makes `document.body` an image, `<form><input name="localName">` shadows a
// form's `localName`). A prototype's function or getter, called with the object as `this`, is what
// the browser implements. The preview feature keeps its own set (features do not import each
// other); this one holds only what highlights need.

function method<This, Args extends unknown[], Result>(prototype: object, name: string) {
  let found: ((...args: unknown[]) => unknown) | undefined;
  return function (self: This, ...args: Args): Result {
    found ??= Reflect.get(prototype, name) as (...args: unknown[]) => unknown;
    if (typeof found !== 'function') throw new TypeError(`no method ${name}`);
    return Reflect.apply(found, self, args) as Result;
  };
}

function getter<This, Result>(prototype: object, name: string) {
  let found: (() => unknown) | undefined;
  return function (self: This): Result {
    found ??= Object.getOwnPropertyDescriptor(prototype, name)?.get;
    if (!found) throw new TypeError(`no getter ${name}`);
    return Reflect.apply(found, self, []) as Result;
  };
}

export const bodyOf = getter<Document, HTMLElement | null>(Document.prototype, 'body');
export const headOf = getter<Document, HTMLHeadElement | null>(Document.prototype, 'head');
export const rootOf = getter<Document, Element | null>(Document.prototype, 'documentElement');
export const viewOf = getter<Document, (Window & typeof globalThis) | null>(
  Document.prototype,
  'defaultView',
);
export const textDataOf = getter<CharacterData, string>(CharacterData.prototype, 'data');
export const parentElementOf = getter<Node, Element | null>(Node.prototype, 'parentElement');
export const createTreeWalker = method<Document, [Node, number, NodeFilter | null], TreeWalker>(
  Document.prototype,
  'createTreeWalker',
);
export const querySelectorAllOf = method<Element, [string], NodeListOf<Element>>(
  Element.prototype,
  'querySelectorAll',
);
export const comparePosition = method<Node, [Node], number>(
  Node.prototype,
  'compareDocumentPosition',
);
export const nextNode = method<TreeWalker, [], Node | null>(TreeWalker.prototype, 'nextNode');
export const createRange = method<Document, [], Range>(Document.prototype, 'createRange');
export const getSelectionOf = method<Document, [], Selection | null>(
  Document.prototype,
  'getSelection',
);
export const createElement = method<Document, [string], Element>(
  Document.prototype,
  'createElement',
);
export const appendChild = method<Node, [Node], Node>(Node.prototype, 'appendChild');
export const removeChild = method<Node, [Node], Node>(Node.prototype, 'removeChild');
export const textContentOf = getter<Node, string | null>(Node.prototype, 'textContent');
export const setTextContent = (node: Node, text: string) => {
  const set = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent')?.set;
  if (set) Reflect.apply(set, node, [text]);
};
export const setAttribute = method<Element, [string, string], void>(
  Element.prototype,
  'setAttribute',
);
export const scrollIntoView = method<Element, [ScrollIntoViewOptions?], void>(
  Element.prototype,
  'scrollIntoView',
);

export function on(
  target: EventTarget,
  type: string,
  listener: EventListener,
  capture = true,
): () => void {
  EventTarget.prototype.addEventListener.call(target, type, listener, capture);
  return () => EventTarget.prototype.removeEventListener.call(target, type, listener, capture);
}
