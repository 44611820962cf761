import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { showDone, showToast, toastStore } from './toast-store.ts';
import { ToastViewport } from './toast-viewport.tsx';

afterEach(() => {
  act(() => toastStore.clear());
  vi.useRealTimers();
});

describe('ToastViewport', () => {
  it('shows results as status messages and errors as alerts, in a live region', () => {
    render(<ToastViewport />);
    act(() => {
      showToast({ message: 'Liked “A page”', tone: 'success' });
      showToast({ message: 'Could not like “B”: database is locked', tone: 'error' });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Liked “A page”');
    expect(screen.getByRole('alert')).toHaveTextContent('Could not like “B”: database is locked');
    expect(screen.getByRole('status').parentElement).toHaveAttribute('aria-live', 'polite');
  });

  it('names an action by its accessible label and runs it once, closing the message', async () => {
    const run = vi.fn();
    render(<ToastViewport />);
    act(() => {
      showToast({
        message: 'Saved the title',
        action: { label: 'Undo', accessibleLabel: 'Undo: Saved the title', run },
      });
    });
    const button = within(screen.getByRole('status')).getByRole('button', {
      name: 'Undo: Saved the title',
    });
    expect(button).toHaveTextContent('Undo');
    await userEvent.setup().click(button);
    expect(run).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('replaces a message by a newer one with the same key, with its own timer', () => {
    vi.useFakeTimers();
    render(<ToastViewport />);
    act(() => {
      showToast({ message: 'Liked “A”', key: 'toggle:a:liked' });
      showToast({ message: 'Marked “A” as read', key: 'toggle:a:read' });
    });
    act(() => vi.advanceTimersByTime(4000));
    act(() => {
      showToast({ message: 'Unliked “A”', key: 'toggle:a:liked' });
    });
    expect(screen.getAllByRole('status').map((toast) => toast.textContent)).toEqual([
      'Marked “A” as read×',
      'Unliked “A”×',
    ]);
    // The replaced message's timer does not take the new one away.
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getAllByRole('status').map((toast) => toast.textContent)).toEqual([
      'Unliked “A”×',
    ]);
    act(() => vi.advanceTimersByTime(4000));
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('toasts stay few', () => {
  it('shows at most three, dropping the oldest result before an error', () => {
    render(<ToastViewport />);
    act(() => {
      showToast({ message: 'Could not save', tone: 'error' });
      for (let n = 1; n <= 5; n++) showToast({ message: `Result ${n}`, tone: 'success' });
    });
    expect(screen.getAllByRole('status').map((toast) => toast.textContent)).toEqual([
      'Result 4×',
      'Result 5×',
    ]);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
  });

  it('collapses changes into one message whose Undo takes them all back, newest first', async () => {
    const undone: string[] = [];
    render(<ToastViewport />);
    act(() => {
      for (const name of ['A', 'B', 'C', 'D', 'E']) {
        showDone(`Liked “${name}”`, () => void undone.push(name), { kind: 'change' });
      }
      showToast({ message: 'Uploaded “F”', tone: 'success' });
    });
    const toasts = screen.getAllByRole('status');
    expect(toasts.map((toast) => toast.textContent)).toEqual([
      '5 changes savedLiked “E”Undo×',
      'Uploaded “F”×',
    ]);
    await userEvent
      .setup()
      .click(within(toasts[0]!).getByRole('button', { name: 'Undo 5 changes' }));
    expect(undone).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('keeps a single change as it is, and a newer change of the same key replaces its part', () => {
    render(<ToastViewport />);
    act(() => {
      showDone('Liked “A”', () => {}, { key: 'toggle:a:liked', kind: 'change' });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Liked “A”');
    act(() => {
      showDone('Unliked “A”', () => {}, { key: 'toggle:a:liked', kind: 'change' });
    });
    expect(screen.getByRole('status')).toHaveTextContent(/^Unliked “A”/);
    act(() => {
      showDone('Marked “A” as read', () => {}, { key: 'toggle:a:read', kind: 'change' });
    });
    expect(screen.getByRole('status')).toHaveTextContent(/^2 changes saved/);
  });

  it('keeps a change without an Undo (an undo’s own result) apart from those with one', () => {
    render(<ToastViewport />);
    act(() => {
      showDone('Unliked “A”', undefined, { key: 'toggle:a:liked', kind: 'change' });
      showDone('Marked “A” as read', () => {}, { key: 'toggle:a:read', kind: 'change' });
    });
    expect(screen.getAllByRole('status').map((toast) => toast.textContent)).toEqual([
      'Unliked “A”×',
      'Marked “A” as readUndo×',
    ]);
  });
});
