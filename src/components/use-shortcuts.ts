import { useEffectEvent, useLayoutEffect } from 'react';

/** Handlers by `KeyboardEvent.key` (`'j'`, `'Enter'`, `'Delete'`, `'?'`, `'ArrowRight'`…). */
export type ShortcutMap = Partial<Record<string, (event: KeyboardEvent) => void>>;

const TYPING = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';
const ACTIVATES = 'a[href], button, summary, input, select, textarea, [role="button"]';

/** Input types where a letter is not typed: shortcuts still apply when they have focus. */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range']);

/**
 * Whether a keystroke is not a shortcut: with Ctrl, Alt or Meta (browser and system keys), while
 * composing, already handled, typed into a field, inside an open dialog, or Enter / Space on a
 * control that acts on them by itself.
 */
export function ignoresShortcut(event: KeyboardEvent): boolean {
  if (
    event.defaultPrevented ||
    event.isComposing ||
    event.ctrlKey ||
    event.metaKey ||
    event.altKey
  ) {
    return true;
  }
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (target.closest('dialog[open]')) return true;
  const field = target.closest(TYPING);
  if (field && !(field instanceof HTMLInputElement && NON_TEXT_INPUTS.has(field.type))) return true;
  return (event.key === 'Enter' || event.key === ' ') && target.closest(ACTIVATES) !== null;
}

/**
 * Page-wide keyboard shortcuts while the component is mounted (and `enabled`). A handled key's
 * default action is prevented (`/` would open the browser's quick find).
 *
 * The listener is added as the component's elements are put in the page (a layout effect, in the
 * same task), stays for as long as the component is mounted and reads `enabled` from the last
 * render when a key comes: a key pressed as soon as a page with shortcuts shows (`l` on a webpage
 * just opened) or as soon as what enables one shows (the toolbar of a selection) is not lost in
 * the moment before a passive effect would run.
 */
export function useShortcuts(shortcuts: ShortcutMap, enabled = true): void {
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    const handler = shortcuts[event.key];
    if (!enabled || !handler || ignoresShortcut(event)) return;
    event.preventDefault();
    handler(event);
  });
  useLayoutEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
