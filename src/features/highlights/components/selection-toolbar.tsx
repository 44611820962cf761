import { useId, useState, type CSSProperties } from 'react';

import { Button } from '../../../components/button.tsx';
import type { PageSelection } from '../use-highlight-layer.ts';
import '../highlights.css';

export interface SelectionToolbarProps {
  selection: PageSelection | null;
  /** Makes the highlight (with a note when one was written). */
  onHighlight: (note?: string) => void;
  onCopy: () => void;
  /** Whether the note form shows (Highlight with note, or the `n` key). */
  writing: boolean;
  onWritingChange: (writing: boolean) => void;
}

const GAP = 8;
const TOOLBAR_HEIGHT = 40;

/** Above the selection, or below it when there is no room above; kept inside the window. */
function placement(rect: PageSelection['rect']): CSSProperties {
  const above = rect.top - GAP - TOOLBAR_HEIGHT;
  const top = above >= 0 ? above : Math.min(rect.bottom + GAP, window.innerHeight - TOOLBAR_HEIGHT);
  const left = Math.max(GAP, Math.min((rect.left + rect.right) / 2 - 120, window.innerWidth - 260));
  return { position: 'fixed', top, left };
}

/**
 * The small toolbar over a selection in the page: Highlight, Highlight with note (a note field
 * first), Copy. Drawn by the app, in its own document, over the frame.
 */
export function SelectionToolbar({
  selection,
  onHighlight,
  onCopy,
  writing,
  onWritingChange: setWriting,
}: SelectionToolbarProps) {
  const [note, setNote] = useState('');
  const noteId = useId();

  if (!selection) return null;
  const style = placement(selection.rect);
  // Keeps the frame's selection: a press on the toolbar does not move the focus first.
  const keepSelection = (event: React.MouseEvent) => event.preventDefault();

  if (writing) {
    return (
      <form
        className="selection-toolbar selection-toolbar--note"
        style={style}
        aria-label="Highlight with note"
        onSubmit={(event) => {
          event.preventDefault();
          onHighlight(note.trim() || undefined);
          setWriting(false);
        }}
      >
        <label htmlFor={noteId} className="visually-hidden">
          Note
        </label>
        <textarea
          id={noteId}
          // Opened on purpose by the reader, to type at once.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          className="selection-toolbar__note"
          rows={3}
          maxLength={100_000}
          value={note}
          placeholder="Note"
          onChange={(event) => setNote(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setWriting(false);
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <span className="selection-toolbar__buttons">
          <Button type="submit" variant="primary">
            Save highlight
          </Button>
          <Button onClick={() => setWriting(false)}>Cancel</Button>
        </span>
      </form>
    );
  }

  return (
    <div
      className="selection-toolbar"
      role="toolbar"
      aria-label="Selected text"
      style={style}
      onMouseDown={keepSelection}
    >
      <Button variant="primary" onClick={() => onHighlight()} aria-keyshortcuts="h">
        Highlight
      </Button>
      <Button onClick={() => setWriting(true)} aria-keyshortcuts="n">
        Highlight with note
      </Button>
      <Button onClick={onCopy}>Copy</Button>
    </div>
  );
}
