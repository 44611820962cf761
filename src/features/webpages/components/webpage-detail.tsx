import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { PageLoading } from '../../../components/skeleton.tsx';
import { displayTitle } from '../../../components/webpage-row.tsx';
import { captureTime, formatBytes, formatDateTime, toIsoDate } from '../../../lib/display.ts';
import { paths } from '../../../lib/paths.ts';
import { hostOf, safeHttpUrl } from '../../../lib/urls.ts';
import { useDeleteWebpage } from '../api/delete-webpage.ts';
import { webpageOptions, type Webpage } from '../api/get-webpage.ts';
import { usePatchWebpage } from '../api/patch-webpage.ts';

export interface WebpageDetailProps {
  webpageId: string;
  /** Renders the archived page (the preview feature's frame); composed by the route. */
  renderPreview?: (webpage: Webpage) => ReactNode;
}

function DateValue({ epochMs }: { epochMs: number }) {
  return <time dateTime={toIsoDate(epochMs)}>{formatDateTime(epochMs)}</time>;
}

/** A webpage's metadata, highlights and actions (like, read, delete), with a slot for its preview. */
export function WebpageDetail({ webpageId, renderPreview }: WebpageDetailProps) {
  const { data: webpage, error, isPending, refetch } = useQuery(webpageOptions(webpageId));
  const patch = usePatchWebpage();
  const remove = useDeleteWebpage();
  const navigate = useNavigate();

  if (isPending) return <PageLoading />;
  if (!webpage) return <ErrorState error={error} onRetry={() => void refetch()} />;

  const link = webpage.link ?? null;
  const href = safeHttpUrl(link);
  const host = hostOf(link);
  const captured = captureTime(webpage.createTime);
  const actionError = patch.error ?? remove.error;

  return (
    <article className="detail" aria-labelledby="webpage-title">
      <header className="page__header detail__header">
        <h1 id="webpage-title" className="page__title detail__title">
          {displayTitle(webpage)}
        </h1>
        <div className="detail__actions">
          <Button
            onClick={() => patch.mutate({ id: webpage.id, patch: { liked: !webpage.liked } })}
            className={webpage.liked ? 'button--on' : undefined}
          >
            {webpage.liked ? 'Unlike' : 'Like'}
          </Button>
          <Button onClick={() => patch.mutate({ id: webpage.id, patch: { read: !webpage.read } })}>
            {webpage.read ? 'Mark as unread' : 'Mark as read'}
          </Button>
          <Link className="button" to={paths.webpagePreview(webpage.id)}>
            Full window
          </Link>
          <ConfirmButton
            label="Delete"
            question="Delete this webpage?"
            pending={remove.isPending}
            onConfirm={() =>
              remove.mutate(webpage.id, {
                onSuccess: () => navigate(paths.home(), { replace: true }),
              })
            }
          />
        </div>
      </header>
      {actionError ? (
        <p className="inline-error" role="alert">
          {patch.error ? 'Could not save the change: ' : 'Could not delete: '}
          {actionError.message}
        </p>
      ) : null}

      <div className="detail__body">
        <section className="detail__info" aria-label="Information">
          {webpage.excerpt ? <p className="detail__excerpt">{webpage.excerpt}</p> : null}
          <dl className="meta">
            <dt>Link</dt>
            <dd className="meta__link">
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {link}
                </a>
              ) : (
                (link ?? 'None')
              )}
            </dd>
            <dt>Host</dt>
            <dd>{host ?? '–'}</dd>
            <dt>Format</dt>
            <dd>{webpage.ext}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(webpage.size)}</dd>
            <dt>Added</dt>
            <dd>
              <DateValue epochMs={webpage.firstAddTime} />
            </dd>
            <dt>Captured</dt>
            <dd>{captured === null ? 'Unknown' : <DateValue epochMs={captured} />}</dd>
            <dt>Status</dt>
            <dd>
              {webpage.read ? 'Read' : 'Unread'}
              {webpage.liked ? ', liked' : ''}
            </dd>
            <dt>Labels</dt>
            <dd>
              {webpage.labels.length ? (
                <ul className="chips" aria-label="Labels">
                  {webpage.labels.map((label) => (
                    <li key={label} className="chip">
                      {label}
                    </li>
                  ))}
                </ul>
              ) : (
                'None'
              )}
            </dd>
          </dl>

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
