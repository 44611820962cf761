// Keys pressed while the preview frame has focus go to the frame's document, not the app's: the
// app's shortcuts (j / k, l, r…) would stop working as soon as the reader clicks into the page.
// A copy of each key is dispatched on the frame's element in the app's document, so it reaches
// the app's handlers; if one of them handles it, the frame does nothing with it. Keys that move
// or scroll the page, and keys typed into a field of the page, stay the page's.
import { getAttribute, isElement, localName, on } from './archived-dom.ts';

/** The page's own keys: scrolling and moving through it. */
const PAGE_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'PageUp',
  'PageDown',
  'Home',
  'End',
  ' ',
  'Tab',
]);

const FIELDS = new Set(['input', 'textarea', 'select']);

function typedIntoField(event: Event): boolean {
  for (const target of event.composedPath()) {
    if (!isElement(target)) continue;
    if (FIELDS.has(localName(target))) return true;
    const editable = getAttribute(target, 'contenteditable');
    if (editable !== null && editable !== 'false') return true;
  }
  return false;
}

/** Forwards `doc`'s key presses to `to` (the frame's element); returns the function that stops. */
export function forwardKeys(doc: Document, to: EventTarget): () => void {
  return on(
    doc,
    'keydown',
    (event) => {
      const key = event as KeyboardEvent;
      if (key.defaultPrevented || PAGE_KEYS.has(key.key) || typedIntoField(key)) return;
      const copy = new KeyboardEvent('keydown', {
        key: key.key,
        code: key.code,
        ctrlKey: key.ctrlKey,
        altKey: key.altKey,
        metaKey: key.metaKey,
        shiftKey: key.shiftKey,
        repeat: key.repeat,
        isComposing: key.isComposing,
        bubbles: true,
        cancelable: true,
      });
      EventTarget.prototype.dispatchEvent.call(to, copy);
      if (copy.defaultPrevented) key.preventDefault();
    },
    false,
  );
}
