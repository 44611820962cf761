// A tiny store of transient messages ("toasts"), shown by ToastViewport. Module-level, so a message
// outlives the page that raised it (a delete's Undo survives the navigation back to the list).

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  /** The button's accessible name when the label alone is ambiguous ("Undo liking “…”"). */
  accessibleLabel?: string;
  run: () => void | Promise<unknown>;
}

/**
 * Messages of one kind collapse into one ("5 changes saved", with one Undo that takes them all
 * back, newest first).
 */
export type ToastKind = 'change' | 'undone';

const COLLAPSED: Record<ToastKind, (count: number) => string> = {
  change: (count) => `${count} changes saved`,
  undone: (count) => `Undone ${count} changes`,
};

export interface ToastInput {
  message: string;
  tone?: ToastTone;
  /** Shown as a list under the message (e.g. the items that failed). */
  details?: readonly string[];
  action?: ToastAction;
  /** Milliseconds before it goes away by itself; `null` keeps it until dismissed. */
  durationMs?: number | null;
  /** A newer message with the same key replaces this one (repeated toggles show one message). */
  key?: string;
  /** Collapses with a shown message of the same kind. */
  kind?: ToastKind;
}

export interface Toast extends ToastInput {
  id: number;
}

const DEFAULT_DURATION_MS = 6000;
const ERROR_DURATION_MS = 12000;
/** Shown at once; the oldest goes first (a result before an error). */
export const MAX_TOASTS = 3;

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<Listener>();
/** The messages a collapsed toast stands for, oldest first. */
const collapsed = new Map<number, readonly ToastInput[]>();

function emit() {
  for (const listener of listeners) listener();
}

function forget(id: number) {
  clearTimer(id);
  collapsed.delete(id);
}

function clearTimer(id: number) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

function startTimer(toast: Toast) {
  clearTimer(toast.id);
  const duration =
    toast.durationMs === undefined
      ? toast.tone === 'error'
        ? ERROR_DURATION_MS
        : DEFAULT_DURATION_MS
      : toast.durationMs;
  if (duration !== null)
    timers.set(
      toast.id,
      setTimeout(() => dismissToast(toast.id), duration),
    );
}

/** One toast standing for `parts` (all of `kind`): "3 changes saved", one Undo for them all. */
function collapse(kind: ToastKind, parts: readonly ToastInput[]): ToastInput {
  const last = parts.at(-1)!;
  if (parts.length === 1) return last;
  const undos = parts.flatMap((part) => (part.action ? [part.action.run] : []));
  // The latest one stays readable under the count.
  const toast: ToastInput = {
    message: COLLAPSED[kind](parts.length),
    details: [last.message],
    kind,
  };
  if (last.tone !== undefined) toast.tone = last.tone;
  if (undos.length) {
    toast.action = {
      label: 'Undo',
      accessibleLabel: `Undo ${undos.length} changes`,
      // Newest first, one after another: each undo finds the state the next one left.
      run: async () => {
        for (const undo of [...undos].reverse()) await undo();
      },
    };
  }
  return toast;
}

/** Shows a message; returns its id (to update or dismiss it). */
export function showToast(input: ToastInput): number {
  let parts: readonly ToastInput[] = [input];
  const { kind } = input;
  if (kind !== undefined) {
    // Changes with an Undo collapse together; a message without one (an undo's result) stays
    // on its own.
    const same = toasts.find(
      (other) =>
        other.kind === kind && (other.action === undefined) === (input.action === undefined),
    );
    if (same) {
      const before = collapsed.get(same.id) ?? [same];
      // A newer message with the same key replaces its part.
      parts = [
        ...before.filter((part) => input.key === undefined || part.key !== input.key),
        input,
      ];
      forget(same.id);
      toasts = toasts.filter((other) => other.id !== same.id);
    }
  }
  if (input.key !== undefined) {
    for (const replaced of toasts.filter((other) => other.key === input.key)) forget(replaced.id);
    toasts = toasts.filter((other) => other.key !== input.key);
  }
  const toast: Toast = { ...(kind === undefined ? input : collapse(kind, parts)), id: nextId++ };
  if (parts.length > 1) collapsed.set(toast.id, parts);
  let shown = [...toasts, toast];
  while (shown.length > MAX_TOASTS) {
    const dropped = shown.find((other) => other.tone !== 'error') ?? shown[0]!;
    forget(dropped.id);
    shown = shown.filter((other) => other !== dropped);
  }
  toasts = shown;
  startTimer(toast);
  emit();
  return toast.id;
}

/**
 * A change's success message, with an Undo button (named "Undo: <message>") when `undo` is given
 * (none for a change that is itself an undo).
 */
export function showDone(
  message: string,
  undo?: () => void | Promise<unknown>,
  { key, kind }: { key?: string; kind?: ToastKind } = {},
): number {
  return showToast({
    message,
    tone: 'success',
    ...(key === undefined ? {} : { key }),
    ...(kind === undefined ? {} : { kind }),
    ...(undo === undefined
      ? {}
      : { action: { label: 'Undo', accessibleLabel: `Undo: ${message}`, run: undo } }),
  });
}

export function dismissToast(id: number): void {
  if (!toasts.some((toast) => toast.id === id)) return;
  forget(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

export const toastStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): readonly Toast[] => toasts,
  /** Removes every message (tests). */
  clear(): void {
    for (const id of timers.keys()) clearTimer(id);
    collapsed.clear();
    toasts = [];
    emit();
  },
};
