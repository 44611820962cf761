import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import { useShortcuts } from './use-shortcuts.ts';

// React runs effects a moment after it shows what a render changed: that moment is where a key
// is lost if the listener is added by an effect. Here React runs as in the browser (not inside
// `act`, which runs effects at once) and the key is pressed as soon as the toolbar shows.
let actEnvironment: unknown;
beforeEach(() => {
  actEnvironment = Reflect.get(globalThis, 'IS_REACT_ACT_ENVIRONMENT');
  Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false);
});
afterEach(() => {
  Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', actEnvironment);
});

/** Presses `key` as soon as an element matching `selector` is in `container` (before any effect). */
function pressWhenShown(container: Element, selector: string, key: string): Promise<void> {
  return new Promise<void>((done) => {
    const observer = new MutationObserver(() => {
      if (!container.querySelector(selector)) return;
      observer.disconnect();
      document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      done();
    });
    observer.observe(container, { childList: true, subtree: true });
  });
}

it('a key pressed as soon as what enables it shows is handled', async () => {
  const highlight = vi.fn();
  let select: (on: boolean) => void = () => undefined;
  function Page() {
    const [selected, setSelected] = useState(false);
    select = setSelected;
    useShortcuts({ h: highlight }, selected);
    return selected ? <div role="toolbar" aria-label="Selected text" /> : null;
  }
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  try {
    root.render(<Page />);
    await vi.waitFor(() => expect(container.childElementCount).toBe(0));
    const shown = pressWhenShown(container, '[role="toolbar"]', 'h');
    // Outside any event handler, as a selection made in the preview's frame is reported.
    setTimeout(() => select(true), 0);
    await shown;
    await vi.waitFor(() => expect(highlight).toHaveBeenCalledTimes(1));

    // Disabled again as soon as the toolbar is gone: the key does nothing.
    setTimeout(() => select(false), 0);
    await vi.waitFor(() => expect(container.querySelector('[role="toolbar"]')).toBeNull());
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', bubbles: true }));
    expect(highlight).toHaveBeenCalledTimes(1);
  } finally {
    root.unmount();
    container.remove();
  }
});

it('a key pressed as soon as the page that has it shows is handled', async () => {
  const like = vi.fn();
  let open: (on: boolean) => void = () => undefined;
  function Detail() {
    useShortcuts({ l: like });
    return <h1>Quokka facts</h1>;
  }
  function App() {
    const [opened, setOpened] = useState(false);
    open = setOpened;
    return opened ? <Detail /> : <p>Search results</p>;
  }
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  try {
    root.render(<App />);
    await vi.waitFor(() => expect(container.querySelector('p')).not.toBeNull());
    const shown = pressWhenShown(container, 'h1', 'l');
    // As a route's data arriving shows the page: outside any event handler.
    setTimeout(() => open(true), 0);
    await shown;
    await vi.waitFor(() => expect(like).toHaveBeenCalledTimes(1));
  } finally {
    root.unmount();
    container.remove();
  }
});
