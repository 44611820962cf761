// What the detail and the full window's reading bar share: Like and Mark as read with their keys,
// Previous / Next through the list or view a webpage was opened from with theirs, and why a move
// failed.
import { Button } from '../../../components/button.tsx';
import type { DetailNavigation } from '../../../components/detail-navigation.ts';
import type { Webpage } from '../api/get-webpage.ts';
import { useToggleWebpage } from '../api/patch-webpage.ts';

/** Like / unlike and read / unread of `webpage` (each toggle with its message and Undo). */
export function useLikeRead(webpage: Webpage) {
  const toggle = useToggleWebpage();
  return {
    like: () => toggle(webpage, 'liked', !webpage.liked),
    read: () => toggle(webpage, 'read', !webpage.read),
  };
}

export function LikeReadButtons({
  webpage,
  like,
  read,
}: { webpage: Webpage } & ReturnType<typeof useLikeRead>) {
  return (
    <>
      <Button onClick={like} className={webpage.liked ? 'button--on' : undefined}>
        {webpage.liked ? 'Unlike' : 'Like'}
      </Button>
      <Button onClick={read}>{webpage.read ? 'Mark as unread' : 'Mark as read'}</Button>
    </>
  );
}

/** The keys that move to the next (`j`, →) and previous (`k`, ←) webpage. */
export function neighbourKeys(neighbours: DetailNavigation) {
  const next = () => void neighbours.go(1);
  const previous = () => void neighbours.go(-1);
  return { j: next, ArrowRight: next, k: previous, ArrowLeft: previous };
}

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
