import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { PageLoading } from '../../../components/skeleton.tsx';
import type { DetailNavigation } from '../../../components/detail-navigation.ts';
import {
  LikeReadButtons,
  NeighbourButtons,
  NeighbourError,
  neighbourKeys,
  useLikeRead,
} from './reading-controls.tsx';
import { showDone, showToast } from '../../../components/toast-store.ts';
import { useShortcuts } from '../../../components/use-shortcuts.ts';
import { displayTitle } from '../../../lib/display.ts';
import { captureTime, formatBytes } from '../../../lib/display.ts';
import { paths, webpageViewContext } from '../../../lib/paths.ts';
import { MAX_EXCERPT_LENGTH, MAX_TITLE_LENGTH } from '../../../../shared/webpage-fields.ts';
import { hostOf, safeHttpUrl } from '../../../lib/urls.ts';
import { useDeleteWebpagesWithUndo } from '../delete-with-undo.ts';
import { webpageOptions, type Webpage } from '../api/get-webpage.ts';
import { useLinkRules } from '../api/link-rules.ts';
import { usePatchWebpage } from '../api/patch-webpage.ts';
import type { ListFilters } from '../filters.ts';
import { editRequested, listFiltersFromState } from '../list-context.ts';
import { loadPanelState, savePanelState, type PanelState } from '../reading-panel.ts';
import { useListNeighbours } from '../use-list-neighbours.ts';
import { DownloadOriginalButton } from './download-original-button.tsx';
import { EditableField } from './editable-field.tsx';
import { LabelEditor } from './label-editor.tsx';
import { OtherCaptures } from './other-captures.tsx';
import './webpage-detail.css';

export interface WebpageDetailProps {
  webpageId: string;
  /** Renders the archived page (the preview feature's frame); composed by the route. */
  renderPreview?: (webpage: Webpage) => ReactNode;
  /** Renders the Highlights panel (the highlights feature's); a plain list by default. */
  renderHighlights?: (webpage: Webpage) => ReactNode;
  /**
   * Previous / Next and the way back when the route opens the detail in another context (a
   * view); by default, the list the detail was opened from.
   */
  navigation?: DetailNavigation;
}

type EditableName = 'title' | 'excerpt' | 'link';

interface DetailBodyProps {
  webpage: Webpage;
  listFilters: ListFilters;
  startEditing: boolean;
  renderPreview?: (webpage: Webpage) => ReactNode;
  renderHighlights?: (webpage: Webpage) => ReactNode;
  navigation?: DetailNavigation;
}

function DetailBody({
  webpage,
  listFilters,
  startEditing,
  renderPreview,
  renderHighlights,
  navigation,
}: DetailBodyProps) {
  const edits = usePatchWebpage();
  const deleteWithUndo = useDeleteWebpagesWithUndo();
  const navigate = useNavigate();
  const listNeighbours = useListNeighbours(webpage.id, listFilters, navigation === undefined);
  const neighbours = navigation ?? listNeighbours;
  const [editing, setEditing] = useState<EditableName | null>(startEditing ? 'title' : null);
  const location = useLocation();
  const viewId = webpageViewContext(useSearchParams()[0]);
  const [panel, setPanel] = useState<PanelState>(loadPanelState);
  const togglePanel = () => {
    const next = panel === 'open' ? 'collapsed' : 'open';
    savePanelState(next);
    setPanel(next);
  };
  const linkRules = useLinkRules();

  // "Open to edit" is for this visit only: back / forward or a reload shows the page as usual.
  useEffect(() => {
    if (!startEditing) return;
    const { edit: _edit, ...state } = location.state as Record<string, unknown>;
    void navigate(location, { replace: true, state });
  }, [startEditing, location, navigate]);

  const link = webpage.link ?? null;
  const href = safeHttpUrl(link);
  const host = hostOf(link);
  const captured = captureTime(webpage.createTime);
  const title = displayTitle(webpage);

  const likeRead = useLikeRead(webpage);
  // A refused save is shown by the field (it keeps the typed text); a saved one by a message
  // whose Undo puts the previous value back.
  const save = async (name: EditableName, value: string | null) => {
    const { id } = webpage;
    const previous = name === 'link' ? (webpage.link ?? null) : webpage[name];
    await edits.mutateAsync({ id, patch: { [name]: value } });
    const message = value === null ? 'Removed the link' : `Saved the ${name}`;
    const restore = () =>
      edits.mutateAsync({ id, patch: { [name]: previous } }).then(
        () =>
          showToast({
            key: `edit:${id}:${name}`,
            tone: 'success',
            message: `Restored the ${name}`,
          }),
        (error: unknown) =>
          showToast({
            key: `edit:${id}:${name}`,
            tone: 'error',
            message: `Could not restore the ${name}: ${error instanceof Error ? error.message : String(error)}`,
          }),
      );
    showDone(message, () => void restore(), { key: `edit:${id}:${name}` });
  };
  const remove = () => {
    void deleteWithUndo([webpage]);
    void navigate(neighbours.back.href);
  };
  const editor = (name: EditableName) => ({
    name,
    editing: editing === name,
    // A save that finishes late closes its own editor only, never one opened since.
    onEditingChange: (on: boolean) =>
      setEditing((current) => (on ? name : current === name ? null : current)),
  });

  useShortcuts(
    {
      l: likeRead.like,
      r: likeRead.read,
      e: () => setEditing('title'),
      Delete: remove,
      ...neighbourKeys(neighbours),
    },
    editing === null,
  );

  return (
    <article
      className={panel === 'collapsed' ? 'detail detail--collapsed' : 'detail'}
      aria-labelledby="webpage-title"
    >
      <nav className="detail__nav" aria-label="Previous and next">
        <Link to={neighbours.back.href}>{neighbours.back.label}</Link>
        <span className="detail__nav-buttons">
          <NeighbourButtons neighbours={neighbours} />
        </span>
        <NeighbourError neighbours={neighbours} />
      </nav>
      <header className="page__header detail__header">
        <div className="detail__heading">
          <h1
            id="webpage-title"
            dir="auto"
            className={editing === 'title' ? 'visually-hidden' : 'page__title detail__title'}
          >
            {title}
          </h1>
          <EditableField
            {...editor('title')}
            value={webpage.title}
            maxLength={MAX_TITLE_LENGTH}
            onSave={(value) => save('title', value.trim())}
          >
            {null}
          </EditableField>
        </div>
        <div className="detail__actions">
          <LikeReadButtons webpage={webpage} {...likeRead} />
          <DownloadOriginalButton webpage={webpage} />
          <Link
            className="button"
            to={paths.webpagePreview(webpage.id, viewId ? { view: viewId } : undefined)}
            // The list it was opened from: Previous / Next go on within it in the full window.
            state={location.state as unknown}
          >
            Full window
          </Link>
          <Button variant="danger" onClick={remove}>
            Delete
          </Button>
          <Button
            className="detail__panel-toggle"
            aria-controls="webpage-info"
            aria-expanded={panel === 'open'}
            onClick={togglePanel}
          >
            {panel === 'open' ? 'Hide details' : 'Show details'}
          </Button>
        </div>
      </header>

      <div className="detail__body">
        <section id="webpage-info" className="detail__info" aria-label="Information">
          <EditableField
            {...editor('excerpt')}
            value={webpage.excerpt}
            multiline
            maxLength={MAX_EXCERPT_LENGTH}
            className="detail__excerpt"
            onSave={(value) => save('excerpt', value.trim())}
          >
            {webpage.excerpt ? (
              <p dir="auto">{webpage.excerpt}</p>
            ) : (
              <p className="muted">No excerpt.</p>
            )}
          </EditableField>
          <dl className="meta">
            <dt>Link</dt>
            <dd className="meta__link">
              <EditableField
                {...editor('link')}
                value={link ?? ''}
                maxLength={8192}
                hint={linkRules.hint}
                validate={linkRules.validate}
                onSave={(value) => save('link', value.trim() || null)}
              >
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer">
                    {link}
                  </a>
                ) : (
                  <span>{link ?? 'None'}</span>
                )}
              </EditableField>
            </dd>
            <dt>Host</dt>
            <dd>{host ?? '–'}</dd>
            <dt>Format</dt>
            <dd>{webpage.ext}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(webpage.size)}</dd>
            <dt>Added</dt>
            <dd>
              <RelativeTime value={webpage.firstAddTime} />
            </dd>
            <dt>Captured</dt>
            <dd>{captured === null ? 'Unknown' : <RelativeTime value={captured} />}</dd>
            <dt>Status</dt>
            <dd>
              {webpage.read ? 'Read' : 'Unread'}
              {webpage.liked ? ', liked' : ''}
            </dd>
            <dt>Labels</dt>
            <dd>
              <LabelEditor webpage={webpage} />
            </dd>
          </dl>

          {link ? <OtherCaptures webpageId={webpage.id} link={link} /> : null}

          {renderHighlights ? (
            renderHighlights(webpage)
          ) : (
            <>
              <h2 className="section-title">Highlights ({webpage.highlights.length})</h2>
              {webpage.highlights.length ? (
                <ol className="highlights">
                  {webpage.highlights.map((highlight) => (
                    <li key={highlight.highlightId} className="highlight">
                      <blockquote className="highlight__text">{highlight.text}</blockquote>
                      {highlight.note ? <p className="highlight__note">{highlight.note}</p> : null}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">No highlights.</p>
              )}
            </>
          )}
        </section>

        {renderPreview ? (
          <section className="detail__preview" aria-label="Preview">
            {renderPreview(webpage)}
          </section>
        ) : null}
      </div>
    </article>
  );
}

/**
 * A webpage's metadata (title, excerpt and link editable inline), labels, highlights and actions
 * (like, read, download, delete with undo), Previous / Next within the list it was opened from,
 * keyboard shortcuts, and a slot for its preview.
 */
export function WebpageDetail({
  webpageId,
  renderPreview,
  renderHighlights,
  navigation,
}: WebpageDetailProps) {
  const { data: webpage, error, isPending, refetch } = useQuery(webpageOptions(webpageId));
  const location = useLocation();
  const listFilters = useMemo(() => listFiltersFromState(location.state), [location.state]);

  if (isPending) return <PageLoading />;
  if (!webpage) return <ErrorState error={error} onRetry={() => void refetch()} />;
  return (
    <DetailBody
      key={webpage.id}
      webpage={webpage}
      listFilters={listFilters}
      startEditing={editRequested(location.state)}
      renderPreview={renderPreview}
      renderHighlights={renderHighlights}
      navigation={navigation}
    />
  );
}
