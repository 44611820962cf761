import { Link } from 'react-router-dom';

import { RelativeTime } from '../../../components/relative-time.tsx';
import { hostOf } from '../../../lib/urls.ts';
import type { SearchResultItem } from '../api/search-webpages.ts';
import { HighlightedText, segmentsText } from './highlighted-text.tsx';

export interface SearchResultProps {
  result: SearchResultItem;
  href: string;
  /** The search narrowed to a label (labels are links to it). */
  labelHref: (label: string) => string;
  /** The search narrowed to a host. */
  hostHref: (host: string) => string;
}

/** One result: the title and a snippet of the text with the matches marked, then its details. */
export function SearchResult({ result, href, labelHref, hostHref }: SearchResultProps) {
  const host = hostOf(result.link);
  const title = segmentsText(result.title).trim();
  return (
    <li className={result.read ? 'search-result' : 'search-result search-result--unread'}>
      <h2 className="search-result__title">
        <Link to={href} dir="auto">
          {title ? <HighlightedText segments={result.title} /> : result.link?.trim() || 'Untitled'}
        </Link>
      </h2>
      {result.content.length > 0 ? (
        <p className="search-result__snippet" dir="auto">
          <HighlightedText segments={result.content} />
        </p>
      ) : null}
      <p className="search-result__meta">
        {result.read ? null : <span className="search-result__badge">Unread</span>}
        {result.liked ? (
          <span className="liked-mark" title="Liked">
            <span aria-hidden="true">♥</span>
            <span className="visually-hidden">Liked</span>
          </span>
        ) : null}
        {host ? (
          <Link to={hostHref(host)} title={`Search only pages from ${host}`}>
            {host}
          </Link>
        ) : null}
        {result.labels.map((label) => (
          <Link
            key={label}
            className="chip"
            dir="auto"
            to={labelHref(label)}
            title={`Search only pages labelled ${label}`}
          >
            {label}
          </Link>
        ))}
        <span>{result.ext}</span>
        {result.annotateCount > 0 ? <span>{result.annotateCount} highlights</span> : null}
        <RelativeTime value={result.firstAddTime} />
      </p>
    </li>
  );
}
