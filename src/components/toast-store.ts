// A tiny store of transient messages ("toasts"), shown by ToastViewport. Module-level, so a message
// outlives the page that raised it (a delete's Undo survives the navigation back to the list).

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  /** The button's accessible name when the label alone is ambiguous ("Undo liking “…”"). */
  accessibleLabel?: string;
  run: () => void;
}

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
}

export interface Toast extends ToastInput {
  id: number;
}

const DEFAULT_DURATION_MS = 6000;
const ERROR_DURATION_MS = 12000;
const MAX_TOASTS = 5;

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
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

/** Shows a message; returns its id (to update or dismiss it). */
export function showToast(input: ToastInput): number {
  const toast: Toast = { ...input, id: nextId++ };
  if (input.key !== undefined) {
    for (const replaced of toasts.filter((other) => other.key === input.key)) {
      clearTimer(replaced.id);
    }
    toasts = toasts.filter((other) => other.key !== input.key);
  }
  const kept = toasts.slice(-(MAX_TOASTS - 1));
  for (const dropped of toasts.slice(0, toasts.length - kept.length)) clearTimer(dropped.id);
  toasts = [...kept, toast];
  startTimer(toast);
  emit();
  return toast.id;
}

/**
 * A change's success message, with an Undo button (named "Undo: <message>") when `undo` is given
 * (none for a change that is itself an undo).
 */
export function showDone(message: string, undo?: () => void, key?: string): number {
  return showToast({
    message,
    tone: 'success',
    ...(key === undefined ? {} : { key }),
    ...(undo === undefined
      ? {}
      : { action: { label: 'Undo', accessibleLabel: `Undo: ${message}`, run: undo } }),
  });
}

export function dismissToast(id: number): void {
  if (!toasts.some((toast) => toast.id === id)) return;
  clearTimer(id);
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
    toasts = [];
    emit();
  },
};
