// Previous / Next through the list or view a webpage was opened from, and why a move failed: the
// detail's navigation and the full window's reading bar show the same controls.
import { Button } from '../../../components/button.tsx';
import type { DetailNavigation } from '../../../components/detail-navigation.ts';

export function NeighbourButtons({ neighbours }: { neighbours: DetailNavigation }) {
  return (
    <>
      <Button
        disabled={!neighbours.canGoPrevious || neighbours.moving}
        onClick={() => void neighbours.go(-1)}
      >
        Previous
      </Button>
      <Button
        disabled={!neighbours.canGoNext || neighbours.moving}
        onClick={() => void neighbours.go(1)}
      >
        Next
      </Button>
    </>
  );
}

export function NeighbourError({ neighbours }: { neighbours: DetailNavigation }) {
  return neighbours.error ? (
    <span className="inline-error" role="alert">
      Could not load the next page of the list: {neighbours.error.message}
    </span>
  ) : null;
}
