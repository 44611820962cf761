import { Link } from 'react-router-dom';

export interface PagerProps {
  /** The current page, 1-based. */
  page: number;
  hasNext: boolean;
  /** The address of another page. */
  href: (page: number) => string;
}

/** Previous / Next links around the current page number (disabled at either end). */
export function Pager({ page, hasNext, href }: PagerProps) {
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="pager__disabled" aria-disabled="true">
          ← Previous
        </span>
      )}
      <span className="pager__current">Page {page}</span>
      {hasNext ? (
        <Link to={href(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="pager__disabled" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
