// The names that would shadow a member of `document`. A `name` (or, on some elements, an `id`)
// equal to one of them makes `document.<name>` return the element instead of the browser's method
// or value (`<img name="querySelectorAll">`, `<form name="body">`): the HTML standard's named
// properties of Document take precedence over its own members. The sanitizer drops such values.
//
// The set is read off a real document, so it is exactly what the browser showing the preview has
// (new members included). The worker has no `Document`: the main thread computes the names and
// sends them with the request.

/** Every property name of a fresh, empty HTML document and its prototype chain. */
export function documentMemberNames(
  implementation: DOMImplementation = document.implementation,
): string[] {
  // A fresh document: the app's own has named properties of its own.
  const fresh = implementation.createHTMLDocument('');
  const names = new Set<string>();
  for (let object: object | null = fresh; object !== null; object = Object.getPrototypeOf(object)) {
    for (const name of Object.getOwnPropertyNames(object)) names.add(name);
  }
  return [...names];
}

let cached: readonly string[] | null = null;

/** `documentMemberNames()` of this window, computed once. */
export function thisDocumentMemberNames(): readonly string[] {
  cached ??= documentMemberNames();
  return cached;
}

/**
 * Elements that a `name` makes a named property of `document` (`frame` becomes an iframe). The
 * standard also names `img` (with a name) and `object` by `id`; `id` is checked on all of them.
 */
export const DOCUMENT_NAMED_ELEMENTS = new Set([
  'img',
  'form',
  'iframe',
  'frame',
  'embed',
  'object',
]);
