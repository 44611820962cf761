import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { Button } from '../../../components/button.tsx';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { feedUrl, useChangeViewFeed, viewFeedOptions } from '../api/view-feed.ts';

/**
 * The view's RSS feed: off by default; on, its address (with a secret: anyone who has it can read
 * the view) to copy; a new address (the old one stops working); off. A server without Folio's feed
 * extension (HamsterBase) manages its feeds itself: the section says so and changes nothing.
 */
export function ViewFeedSection({ viewId }: { viewId: string }) {
  const headingId = useId();
  const urlId = useId();
  const { data: feed, error, isPending } = useQuery(viewFeedOptions(viewId));
  const change = useChangeViewFeed(viewId);
  const [copied, setCopied] = useState<string | null>(null);

  let body;
  if (isPending) body = <p>Loading the feed…</p>;
  else if (!feed) {
    body = (
      <p className="form__error" role="alert">
        Could not read the feed: {error?.message}
      </p>
    );
  } else if ('unsupported' in feed) {
    body = (
      <p>
        This server has no feed settings: its feeds are managed in HamsterBase (
        <code>/feeds/views/…/webpages</code>).
      </p>
    );
  } else if (!feed.enabled || feed.path === undefined) {
    body = (
      <>
        <p>Off. Turned on, the view’s webpages can be read as RSS at a secret address.</p>
        <Button onClick={() => change.mutate('enable')} disabled={change.isPending}>
          Turn on
        </Button>
      </>
    );
  } else {
    const url = feedUrl(feed.path);
    const copy = () =>
      void navigator.clipboard.writeText(url).then(
        () => setCopied(url),
        () => setCopied(null),
      );
    body = (
      <>
        <p>Anyone with this address can read the view, without the token.</p>
        <div className="form__field form__field--inline">
          <label htmlFor={urlId}>Feed address</label>
          <input id={urlId} type="text" readOnly value={url} onFocus={(e) => e.target.select()} />
          <Button onClick={copy}>{copied === url ? 'Copied' : 'Copy'}</Button>
        </div>
        <div className="form__actions">
          <ConfirmButton
            label="Rotate"
            question="Make a new address? The current one stops working."
            confirmLabel="Make a new address"
            onConfirm={() => change.mutate('rotate')}
            pending={change.isPending}
          />
          <Button onClick={() => change.mutate('disable')} disabled={change.isPending}>
            Turn off
          </Button>
        </div>
      </>
    );
  }
  return (
    <section className="form__group" aria-labelledby={headingId}>
      <h2 id={headingId}>RSS feed</h2>
      {body}
      {change.error ? (
        <p className="form__error" role="alert">
          Could not change the feed: {change.error.message}
        </p>
      ) : null}
    </section>
  );
}
