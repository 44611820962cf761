// The keyboard's actions on a list (like, read, delete), queued by the page until its bulk actions
// (loaded on first use) take them. `seq` grows with every press and never starts again while the
// page lives, so a new press is never taken for one already done.
import { useCallback, useRef, useState } from 'react';

export interface QueuedCommand<A extends string> {
  seq: number;
  action: A;
  ids: readonly string[];
}

export interface CommandQueue<A extends string> {
  /** The presses not yet taken, oldest first. */
  commands: readonly QueuedCommand<A>[];
  /** Queues a press. */
  push: (action: A, ids: readonly string[]) => void;
  /** The commands up to `seq` are taken: they leave the queue. */
  onCommandsDone: (seq: number) => void;
}

export function useCommandQueue<A extends string>(): CommandQueue<A> {
  const [commands, setCommands] = useState<readonly QueuedCommand<A>[]>([]);
  const nextSeq = useRef(1);
  const push = (action: A, ids: readonly string[]) => {
    const seq = nextSeq.current++;
    setCommands((queued) => [...queued, { seq, action, ids }]);
  };
  const onCommandsDone = useCallback(
    (seq: number) => setCommands((queued) => queued.filter((next) => next.seq > seq)),
    [],
  );
  return { commands, push, onCommandsDone };
}
