import { useId, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import { saveFile } from '../../../lib/save-file.ts';
import { isPendingHighlight, type Highlight } from '../api/highlight-edits.ts';
import { highlightsMarkdown } from '../markdown.ts';
import type { AnchoredHighlight } from '../use-highlight-layer.ts';
import '../highlights.css';

export interface HighlightsPanelPage {
  title: string;
  link?: string | null;
  /** The page's absolute address in Folio (the Markdown file's links). */
  folioUrl: string;
}

export interface HighlightsPanelProps {
  page: HighlightsPanelPage;
  /** The page's highlights, in page order (see `useHighlightLayer`). */
  anchored: readonly AnchoredHighlight[];
  /** Whether the page's text has been read: before, no highlight is said to be missing. */
  ready: boolean;
  /** Scrolls the preview to a highlight and flashes it. */
  onReveal: (highlightId: string) => void;
  onSaveNote: (highlightId: string, note: string) => Promise<unknown>;
  onDelete: (highlight: Highlight) => void;
}

/** A file name from the page's title: letters, digits and dashes. */
function fileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'page'}-highlights.md`;
}

function NoteEditor({
  note,
  onSave,
  onDone,
}: {
  note: string;
  onSave: (note: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const [value, setValue] = useState(note);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  return (
    <form
      className="highlight-panel__note-form"
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        onSave(value.trim()).then(onDone, (failure: unknown) => {
          setSaving(false);
          setError(failure instanceof Error ? failure.message : String(failure));
        });
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Note
      </label>
      <textarea
        id={id}
        className="highlight-panel__note-field"
        rows={3}
        maxLength={100_000}
        value={value}
        // Opened on purpose by the reader, to type at once.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDone();
        }}
      />
      {error ? (
        <p className="form__error" role="alert">
          Could not save the note: {error}
        </p>
      ) : null}
      <span className="highlight-panel__actions">
        <Button type="submit" variant="primary" disabled={saving}>
          Save note
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </span>
    </form>
  );
}

/**
 * The detail's Highlights panel: the page's highlights in page order (those not found in the page
 * last, said so), each with its note edited inline and a Delete; a click on one shows it in the
 * preview. "Export highlights" saves them as Markdown.
 */
export function HighlightsPanel({
  page,
  anchored,
  ready,
  onReveal,
  onSaveNote,
  onDelete,
}: HighlightsPanelProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const exportMarkdown = () => {
    const markdown = highlightsMarkdown(
      [
        {
          title: page.title,
          link: page.link ?? null,
          folioUrl: page.folioUrl,
          highlights: anchored.map(({ highlight }) => ({
            text: highlight.text,
            note: highlight.note ?? null,
            time: highlight.editTime ?? null,
          })),
        },
      ],
      `Highlights: ${page.title.trim() || 'Untitled'}`,
    );
    saveFile(new TextEncoder().encode(markdown), fileName(page.title), 'text/markdown');
  };

  return (
    <section className="highlight-panel" aria-labelledby="highlights-title">
      <div className="highlight-panel__header">
        <h2 id="highlights-title" className="section-title">
          Highlights ({anchored.length})
        </h2>
        {anchored.length ? <Button onClick={exportMarkdown}>Export highlights</Button> : null}
      </div>
      {anchored.length ? (
        <ol className="highlights">
          {anchored.map(({ highlight, span }) => {
            const id = highlight.highlightId;
            const pending = isPendingHighlight(id);
            const note = highlight.note ?? '';
            return (
              <li key={id} className="highlight highlight-panel__item" data-highlight-id={id}>
                {span ? (
                  <button
                    type="button"
                    className="highlight-panel__quote highlight__text"
                    title="Show in the page"
                    onClick={() => onReveal(id)}
                  >
                    {highlight.text}
                  </button>
                ) : (
                  <>
                    <blockquote className="highlight__text">{highlight.text}</blockquote>
                    {ready ? (
                      <p className="highlight-panel__missing">Not found in the page</p>
                    ) : null}
                  </>
                )}
                {editing === id ? (
                  <NoteEditor
                    note={note}
                    onSave={(value) => onSaveNote(id, value)}
                    onDone={() => setEditing(null)}
                  />
                ) : (
                  <>
                    {note ? <p className="highlight__note">{note}</p> : null}
                    <span className="highlight-panel__actions">
                      <Button
                        variant="ghost"
                        disabled={pending}
                        onClick={() => setEditing(id)}
                        aria-label={`${note ? 'Edit note' : 'Add note'}: ${highlight.text.slice(0, 60)}`}
                      >
                        {note ? 'Edit note' : 'Add note'}
                      </Button>
                      <Button
                        variant="ghost"
                        disabled={pending}
                        onClick={() => onDelete(highlight)}
                        aria-label={`Delete highlight: ${highlight.text.slice(0, 60)}`}
                      >
                        Delete
                      </Button>
                    </span>
                  </>
                )}
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">No highlights. Select text in the page to highlight it.</p>
      )}
    </section>
  );
}
