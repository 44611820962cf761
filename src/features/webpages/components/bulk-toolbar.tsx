import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { showDone, showToast } from '../../../components/toast-store.ts';
import type { QueuedCommand } from '../../../components/use-command-queue.ts';
import { displayTitle } from '../../../lib/display.ts';
import { useBulkPatchWebpages, type BulkChange } from '../api/bulk-patch-webpages.ts';
import { useDeleteWebpagesWithUndo } from '../delete-with-undo.ts';
import { facetsOptions } from '../api/get-facets.ts';
import type { WebpageListItem } from '../api/list-webpages.ts';
import { optimisticFields, type WebpagePatch } from '../api/patch-webpage.ts';
import { ExportButton } from './export-button.tsx';

export type ListAction = 'like' | 'read' | 'delete';

/** An action asked for by the keyboard (see `useCommandQueue`). */
export type ListCommand = QueuedCommand<ListAction>;

export interface BulkToolbarProps {
  /** The webpages on the page. */
  items: readonly WebpageListItem[];
  selected: readonly WebpageListItem[];
  /** The keyboard's presses not yet taken, oldest first (the page queues them). */
  commands: readonly ListCommand[];
  /** The commands up to `seq` are taken: the page drops them from its queue. */
  onCommandsDone: (seq: number) => void;
  onSelectionChange: (ids: string[]) => void;
}

type Flags = Partial<Pick<WebpageListItem, 'liked' | 'read'>>;

const MAX_LABEL_LENGTH = 200;

function count(n: number): string {
  return n === 1 ? '1 webpage' : `${n} webpages`;
}

/** "Liked 3 webpages." / "Liked “Title”." */
function doneMessage(verb: string, targets: readonly WebpageListItem[]): string {
  return targets.length === 1
    ? `${verb} “${displayTitle(targets[0]!)}”.`
    : `${verb} ${count(targets.length)}.`;
}

/** The changes that put back what `changes` changed, for the webpages in `done`. */
function undoChanges(
  changes: readonly BulkChange[],
  done: readonly WebpageListItem[],
): BulkChange[] {
  const doneIds = new Set(done.map((item) => item.id));
  return changes
    .filter(({ item }) => doneIds.has(item.id))
    .map(({ item, patch }) => {
      const fields = optimisticFields(patch);
      const previous: WebpagePatch = {};
      if (fields.liked !== undefined) previous.liked = item.liked;
      if (fields.read !== undefined) previous.read = item.read;
      if (fields.labels !== undefined) previous.labels = item.labels;
      return { item: { ...item, ...fields }, patch: previous };
    });
}

/**
 * Actions on the selected webpages (and the keyboard's l / r / Delete on the list): like, unlike,
 * read, unread, add or remove a label, delete (with undo). One request per webpage, at most four
 * at a time; the result says how many were done and which failed, and the failed ones stay
 * selected.
 */
export function BulkToolbar({
  items,
  selected,
  commands,
  onCommandsDone,
  onSelectionChange,
}: BulkToolbarProps) {
  const bulk = useBulkPatchWebpages();
  // Likes and read states this toolbar set and the rows may not show yet (a press comes before
  // the list draws the last one): a toggle starts from them. Dropped once the rows agree.
  const known = useRef(new Map<string, Flags>());
  const current = (item: WebpageListItem): WebpageListItem => {
    const flags = known.current.get(item.id);
    return flags ? { ...item, ...flags } : item;
  };
  useEffect(() => {
    for (const item of items) {
      const flags = known.current.get(item.id);
      if (flags && (Object.keys(flags) as (keyof Flags)[]).every((key) => item[key] === flags[key]))
        known.current.delete(item.id);
    }
  }, [items]);
  const remember = (changes: readonly BulkChange[], pick: (change: BulkChange) => Flags) => {
    for (const change of changes) {
      const flags = pick(change);
      if (Object.keys(flags).length)
        known.current.set(change.item.id, { ...known.current.get(change.item.id), ...flags });
    }
  };
  const flagsOf = (patch: WebpagePatch): Flags => {
    const flags: Flags = {};
    if (patch.liked !== undefined) flags.liked = patch.liked;
    if (patch.read !== undefined) flags.read = patch.read;
    return flags;
  };
  // Keyboard commands and undos run one after another, in order: two changes of one page never
  // race each other to the server.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const enqueue = (run: () => Promise<unknown>) => {
    const next = queue.current.then(run);
    queue.current = next.catch(() => undefined);
    return next;
  };
  /** Sends the changes, remembering the flags they set (and, for those refused, the old ones). */
  const send = async (changes: readonly BulkChange[]) => {
    remember(changes, ({ patch }) => flagsOf(patch));
    const result = await bulk.mutateAsync(changes);
    const failedIds = new Set(result.failed.map(({ item }) => item.id));
    remember(
      changes.filter(({ item }) => failedIds.has(item.id)),
      ({ item, patch }) => {
        const back: Flags = {};
        if (patch.liked !== undefined) back.liked = item.liked;
        if (patch.read !== undefined) back.read = item.read;
        return back;
      },
    );
    return result;
  };
  const deleteWithUndo = useDeleteWebpagesWithUndo();
  const [labelForm, setLabelForm] = useState<'add' | 'remove' | null>(null);
  const [label, setLabel] = useState('');
  const id = useId();
  const facets = useQuery({ ...facetsOptions(), enabled: labelForm === 'add' });

  const patchAll = async (
    targets: readonly WebpageListItem[],
    verb: string,
    patchFor: (item: WebpageListItem) => WebpagePatch | null,
    fromSelection: boolean,
  ) => {
    const changes: BulkChange[] = [];
    for (const item of targets.map(current)) {
      const patch = patchFor(item);
      if (patch) changes.push({ item, patch });
    }
    const { done, failed } = await send(changes);
    if (failed.length) {
      showToast({
        tone: 'error',
        message: `${verb} ${targets.length - failed.length} of ${count(targets.length)}; ${failed.length} failed:`,
        details: failed.map(({ item, message }) => `${displayTitle(item)}: ${message}`),
      });
    } else {
      const message = doneMessage(verb, targets);
      const undo = undoChanges(changes, done);
      showDone(message, undo.length ? () => enqueue(() => undoAll(undo, message)) : undefined, {
        kind: 'change',
      });
    }
    if (fromSelection || failed.length) onSelectionChange(failed.map(({ item }) => item.id));
  };

  const undoAll = async (changes: readonly BulkChange[], what: string) => {
    const { failed } = await send(changes);
    if (failed.length) {
      showToast({
        tone: 'error',
        message: `Could not undo for ${count(failed.length)} (${what}):`,
        details: failed.map(({ item, message }) => `${displayTitle(item)}: ${message}`),
      });
    } else {
      showToast({
        tone: 'success',
        message: `Undone: ${what}`,
        kind: 'undone',
      });
    }
  };

  const setFlag = (
    targets: readonly WebpageListItem[],
    key: 'liked' | 'read',
    value: boolean,
    fromSelection: boolean,
  ) => {
    const verb =
      key === 'liked'
        ? value
          ? 'Liked'
          : 'Unliked'
        : value
          ? 'Marked as read'
          : 'Marked as unread';
    return patchAll(
      targets,
      verb,
      (item) => (item[key] === value ? null : { [key]: value }),
      fromSelection,
    );
  };

  const remove = async (targets: readonly WebpageListItem[], fromSelection: boolean) => {
    const ids = new Set(targets.map((item) => item.id));
    if (fromSelection)
      onSelectionChange(selected.filter((item) => !ids.has(item.id)).map((item) => item.id));
    const outcome = await deleteWithUndo(targets);
    if (!outcome.undone && outcome.failed.length) {
      onSelectionChange(outcome.failed.map(({ target }) => target.id));
    }
  };

  // Called when the command's turn comes: the rows and selection are the latest ones.
  const execute = useEffectEvent(async (next: ListCommand) => {
    const targets = items.filter((item) => next.ids.includes(item.id)).map(current);
    if (!targets.length) return;
    const fromSelection = selected.length > 0;
    // A delete waits out its undo window on its own: the next commands do not wait for it.
    if (next.action === 'delete') void remove(targets, fromSelection);
    else {
      const key = next.action === 'like' ? 'liked' : 'read';
      // Like all unless all are liked already (then unlike them); the same for read.
      await setFlag(targets, key, !targets.every((item) => item[key]), fromSelection);
    }
  });
  // Every command once, in order: `seq` only grows, so "after the last taken" is exact.
  const lastSeq = useRef(0);
  useEffect(() => {
    const fresh = commands.filter((next) => next.seq > lastSeq.current);
    const last = fresh.at(-1);
    if (!last) return;
    lastSeq.current = last.seq;
    onCommandsDone(last.seq);
    for (const next of fresh) void enqueue(() => execute(next));
  }, [commands, onCommandsDone]);

  if (!selected.length) return null;

  const labelsOfSelection = [...new Set(selected.flatMap((item) => item.labels))].sort();
  const closeForm = () => {
    setLabelForm(null);
    setLabel('');
  };
  const submitLabel = (event: FormEvent) => {
    event.preventDefault();
    const value = label.trim();
    if (!value) return;
    const targets = [...selected];
    if (labelForm === 'add') {
      void patchAll(
        targets,
        `Added the label “${value}” to`,
        (item) => (item.labels.includes(value) ? null : { labels: [...item.labels, value] }),
        true,
      );
    } else {
      void patchAll(
        targets,
        `Removed the label “${value}” from`,
        (item) =>
          item.labels.includes(value) ? { labels: item.labels.filter((l) => l !== value) } : null,
        true,
      );
    }
    closeForm();
  };

  const busy = bulk.isPending;
  return (
    <div className="bulk" role="group" aria-label="Bulk actions">
      <span className="bulk__count" role="status">
        {selected.length} selected
      </span>
      <Button disabled={busy} onClick={() => void setFlag(selected, 'liked', true, true)}>
        Like
      </Button>
      <Button disabled={busy} onClick={() => void setFlag(selected, 'liked', false, true)}>
        Unlike
      </Button>
      <Button disabled={busy} onClick={() => void setFlag(selected, 'read', true, true)}>
        Mark as read
      </Button>
      <Button disabled={busy} onClick={() => void setFlag(selected, 'read', false, true)}>
        Mark as unread
      </Button>
      <Button
        disabled={busy}
        aria-expanded={labelForm === 'add'}
        onClick={() => setLabelForm(labelForm === 'add' ? null : 'add')}
      >
        Add label…
      </Button>
      <Button
        disabled={busy || !labelsOfSelection.length}
        aria-expanded={labelForm === 'remove'}
        onClick={() => {
          setLabelForm(labelForm === 'remove' ? null : 'remove');
          setLabel(labelsOfSelection[0] ?? '');
        }}
      >
        Remove label…
      </Button>
      <ExportButton selection={{ ids: selected.map((item) => item.id) }} />
      <Button variant="danger" disabled={busy} onClick={() => void remove(selected, true)}>
        Delete
      </Button>
      <Button variant="ghost" onClick={() => onSelectionChange([])}>
        Clear selection
      </Button>
      {busy ? (
        <span className="muted" role="status">
          Working…
        </span>
      ) : null}
      {labelForm ? (
        <form className="bulk__form" onSubmit={submitLabel}>
          {labelForm === 'add' ? (
            <>
              <input
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the user just asked for it
                autoFocus
                aria-label="Label to add"
                list={`${id}-labels`}
                maxLength={MAX_LABEL_LENGTH}
                value={label}
                onChange={(event) => setLabel(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') closeForm();
                }}
              />
              <datalist id={`${id}-labels`}>
                {facets.data?.labels.map((facet) => (
                  <option key={facet.value} value={facet.value} />
                ))}
              </datalist>
              <Button type="submit" variant="primary" disabled={!label.trim()}>
                Add
              </Button>
            </>
          ) : (
            <>
              <select
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the user just asked for it
                autoFocus
                aria-label="Label to remove"
                value={label}
                onChange={(event) => setLabel(event.target.value)}
              >
                {labelsOfSelection.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
              <Button type="submit" variant="primary" disabled={!label}>
                Remove
              </Button>
            </>
          )}
          <Button onClick={closeForm}>Cancel</Button>
        </form>
      ) : null}
    </div>
  );
}
