import { useEffect, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';

import { Button } from './button.tsx';

interface Shortcut {
  keys: readonly string[];
  action: string;
}

interface ShortcutGroup {
  title: string;
  shortcuts: readonly Shortcut[];
}

/** Every keyboard shortcut of the app, as the help dialog lists them. */
export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      { keys: ['?'], action: 'Show the keyboard shortcuts' },
      { keys: ['u'], action: 'Upload webpages' },
      { keys: ['Ctrl+K', '⌘K'], action: 'Search' },
      { keys: ['/'], action: 'Search (in the library, / goes to the filters)' },
    ],
  },
  {
    title: 'Library',
    shortcuts: [
      { keys: ['j', 'k'], action: 'Next / previous webpage in the list' },
      { keys: ['Enter'], action: 'Open the webpage' },
      { keys: ['x'], action: 'Select or deselect the webpage' },
      { keys: ['l'], action: 'Like or unlike (the selection, else the webpage)' },
      { keys: ['r'], action: 'Mark as read or unread (the selection, else the webpage)' },
      { keys: ['e'], action: 'Open the webpage and edit its title' },
      { keys: ['Delete'], action: 'Delete (the selection, else the webpage), with undo' },
      { keys: ['/'], action: 'Go to the filters' },
    ],
  },
  {
    title: 'Webpage',
    shortcuts: [
      { keys: ['j', '→'], action: 'Next webpage of the list' },
      { keys: ['k', '←'], action: 'Previous webpage of the list' },
      { keys: ['l'], action: 'Like or unlike' },
      { keys: ['r'], action: 'Mark as read or unread' },
      { keys: ['e'], action: 'Edit the title' },
      { keys: ['v'], action: 'Reader view on or off' },
      { keys: ['h'], action: 'Highlight the selected text' },
      { keys: ['n'], action: 'Highlight the selected text, with a note' },
      { keys: ['Delete'], action: 'Delete, with undo' },
      { keys: ['Enter', 'Escape'], action: 'Save / cancel an edit' },
    ],
  },
];

export interface ShortcutsDialogProps {
  onClose: () => void;
}

/**
 * The list of keyboard shortcuts in a modal `<dialog>`: focus moves to its Close button, Escape
 * closes it, and focus returns to where it was.
 */
export function ShortcutsDialog({ onClose }: ShortcutsDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement;
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    closeRef.current?.focus();
    return () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  const onCancel = (event: SyntheticEvent) => {
    // Escape: let React unmount the dialog rather than the browser close it behind its back.
    event.preventDefault();
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel(event);
  };

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby="shortcuts-title"
      onCancel={onCancel}
      onKeyDown={onKeyDown}
    >
      <header className="dialog__header">
        <h2 id="shortcuts-title" className="section-title">
          Keyboard shortcuts
        </h2>
        <Button ref={closeRef} onClick={onClose}>
          Close
        </Button>
      </header>
      {SHORTCUT_GROUPS.map((group) => (
        <section key={group.title} className="shortcuts__group" aria-label={group.title}>
          <h3 className="shortcuts__title">{group.title}</h3>
          <dl className="shortcuts">
            {group.shortcuts.map((shortcut) => (
              <div key={shortcut.action} className="shortcuts__row">
                <dt>
                  {shortcut.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 ? ' / ' : null}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{shortcut.action}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </dialog>
  );
}
