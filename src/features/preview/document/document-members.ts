// The names that would shadow a member of `document` or of a form. A `name` (or, on some elements,
// an `id`) equal to one of them makes `document.<name>` return the element instead of the
// browser's method or value (`<img name="querySelectorAll">`, `<form name="body">`): the HTML
// standard's named properties of Document take precedence over its own members. A form control
// does the same to its form (`<input name="parentNode">` makes `form.parentNode` the input), and
// code that walks up from an element inside the archive then never reaches the top: React, after
// a commit, walks up from the element that had the focus (a link clicked in the preview), and the
// tab hung on the next navigation. The sanitizer drops such values.
//
// The set is read off a real document, so it is exactly what the browser showing the preview has
// (new members included). The worker has no `Document`: the main thread computes the names and
// sends them with the request.

/**
 * Every property name of a fresh, empty HTML document and of a form in it, with their prototype
 * chains.
 */
export function reservedMemberNames(
  implementation: DOMImplementation = document.implementation,
): string[] {
  // A fresh document: the app's own has named properties of its own.
  const fresh = implementation.createHTMLDocument('');
  const names = new Set<string>();
  for (const root of [fresh, fresh.createElement('form')]) {
    for (
      let object: object | null = root;
      object !== null;
      object = Object.getPrototypeOf(object)
    ) {
      for (const name of Object.getOwnPropertyNames(object)) names.add(name);
    }
  }
  return [...names];
}

let cached: readonly string[] | null = null;

/** `reservedMemberNames()` of this window, computed once. */
export function thisReservedMemberNames(): readonly string[] {
  cached ??= reservedMemberNames();
  return cached;
}

/**
 * Elements that a `name` makes a named property of `document` (`frame` becomes an iframe), and the
 * form controls whose `name` or `id` makes them a named property of their form. The standard also
 * names `img` (with a name) and `object` by `id`; `id` is checked on all of them.
 */
export const NAMED_ELEMENTS = new Set([
  'img',
  'form',
  'iframe',
  'frame',
  'embed',
  'object',
  'button',
  'fieldset',
  'input',
  'output',
  'select',
  'textarea',
]);
