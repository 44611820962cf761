import { useId } from 'react';
import { Link } from 'react-router-dom';

import { Button } from '../../../components/button.tsx';
import { formatBytes } from '../../../lib/display.ts';
import { paths } from '../../../lib/paths.ts';
import { FORMAT_LABELS } from '../detect-format.ts';
import type { FormatCheck, WebpageExt } from '../detect-format.ts';
import { linkError } from '../upload-errors.ts';
import { canCancel, canRetry, isEditable } from '../upload-queue.ts';
import type { UploadItem } from '../upload-queue.ts';
import { describeStatus, percent } from '../upload-status.ts';
import type { UploadQueueActions } from '../use-upload-queue.ts';

export interface UploadRowProps {
  item: UploadItem;
  actions: Pick<
    UploadQueueActions,
    'chooseFormat' | 'edit' | 'setEditing' | 'retry' | 'cancel' | 'remove'
  >;
}

/** The fixes a format check offers: send as the detected format, or as named anyway. */
function formatFixes(check: FormatCheck | null): { ext: WebpageExt; label: string }[] {
  if (!check) return [];
  switch (check.status) {
    case 'mismatch':
      return [{ ext: check.detected, label: `Upload as ${FORMAT_LABELS[check.detected]}` }];
    case 'unsupported':
      return check.detected
        ? [{ ext: check.detected, label: `Upload as ${FORMAT_LABELS[check.detected]}` }]
        : [];
    case 'unrecognized':
      return [{ ext: check.named, label: 'Upload anyway' }];
    case 'ok':
    case 'empty':
    case 'truncated': // the server would refuse it: nothing to offer
      return [];
  }
}

function progressValue(item: UploadItem): number {
  switch (item.status) {
    case 'encoding':
    case 'uploading':
      return percent(item.progress);
    case 'added':
    case 'existing':
      return 100;
    default:
      return 0;
  }
}

/** One file of the queue: name, size, format, status with progress, fixes, fields and actions. */
export function UploadRow({ item, actions }: UploadRowProps) {
  const id = useId();
  const nameId = `${id}-name`;
  const statusId = `${id}-status`;
  const linkErrorId = `${id}-link-error`;
  const { file } = item;
  const status = describeStatus(item);
  const fixes = item.status === 'blocked' ? formatFixes(item.check) : [];
  // A blocked file with no fix can never be sent: nothing to fill in.
  const editable = isEditable(item) && (item.status !== 'blocked' || fixes.length > 0);
  const invalidLink = linkError(item.link);
  const done = item.status === 'added' || item.status === 'existing';
  const problem = item.status === 'blocked' || item.status === 'failed';

  return (
    <li className="upload-row" data-status={item.status} aria-labelledby={nameId}>
      <div className="upload-row__head">
        <span className="upload-row__name" id={nameId}>
          {file.name}
        </span>
        <span className="upload-row__meta">
          {formatBytes(file.size)}
          {item.ext ? ` · ${FORMAT_LABELS[item.ext]}` : ''}
        </span>
      </div>

      <div
        className="upload-row__bar"
        role="progressbar"
        aria-label={file.name}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progressValue(item)}
        aria-valuetext={status}
      >
        <div className="upload-row__fill" style={{ width: `${progressValue(item)}%` }} />
      </div>

      <p
        className={
          problem ? 'upload-row__status upload-row__status--problem' : 'upload-row__status'
        }
        id={statusId}
      >
        <span>{status}</span>
        {done && item.webpage ? (
          <>
            {' · '}
            <Link to={paths.webpage(item.webpage.id)} aria-describedby={nameId}>
              Open
            </Link>
          </>
        ) : null}
      </p>

      {editable ? (
        <details className="upload-row__fields">
          <summary aria-describedby={nameId}>Title and link</summary>
          <div className="upload-row__field">
            <label htmlFor={`${id}-title`}>Title</label>
            <input
              id={`${id}-title`}
              type="text"
              value={item.title}
              maxLength={2000}
              placeholder="From the page"
              aria-describedby={nameId}
              onChange={(event) => actions.edit(item.id, { title: event.target.value })}
              onFocus={() => actions.setEditing(item.id, true)}
              onBlur={() => actions.setEditing(item.id, false)}
            />
          </div>
          <div className="upload-row__field">
            <label htmlFor={`${id}-link`}>Link</label>
            <input
              id={`${id}-link`}
              type="url"
              inputMode="url"
              value={item.link}
              maxLength={8192}
              placeholder="https://…"
              aria-invalid={invalidLink !== null}
              aria-describedby={invalidLink ? `${nameId} ${linkErrorId}` : nameId}
              onChange={(event) => actions.edit(item.id, { link: event.target.value })}
              onFocus={() => actions.setEditing(item.id, true)}
              onBlur={() => actions.setEditing(item.id, false)}
            />
            {invalidLink ? (
              <p className="upload-row__error" id={linkErrorId}>
                {invalidLink}
              </p>
            ) : null}
          </div>
        </details>
      ) : null}

      <div className="upload-row__actions">
        {fixes.map((fix) => (
          <Button
            key={fix.ext}
            variant="primary"
            aria-describedby={nameId}
            onClick={() => actions.chooseFormat(item.id, fix.ext)}
          >
            {fix.label}
          </Button>
        ))}
        {canRetry(item) ? (
          <Button aria-describedby={nameId} onClick={() => actions.retry(item.id)}>
            Retry
          </Button>
        ) : null}
        {canCancel(item) ? (
          <Button aria-describedby={nameId} onClick={() => actions.cancel(item.id)}>
            Cancel
          </Button>
        ) : null}
        <Button variant="ghost" aria-describedby={nameId} onClick={() => actions.remove(item.id)}>
          Remove
        </Button>
      </div>
    </li>
  );
}
