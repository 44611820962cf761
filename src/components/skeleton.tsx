export interface ListSkeletonProps {
  rows?: number;
  label?: string;
}

/** Grey placeholder rows while a list loads; announced once as busy. */
export function ListSkeleton({ rows = 12, label = 'Loading…' }: ListSkeletonProps) {
  return (
    <div className="skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton__row" aria-hidden="true">
          <span className="skeleton__bar" />
        </div>
      ))}
    </div>
  );
}

/** A page-sized loading indicator, for lazy routes. */
export function PageLoading() {
  return (
    <div className="page-loading" role="status">
      Loading…
    </div>
  );
}
