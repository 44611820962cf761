import { afterEach, describe, expect, it } from 'vitest';

import { forwardKeys } from './forward-keys.ts';

/** An archived document (another document than the app's) with a field and an editable part. */
function archivedDocument(): Document {
  const doc = document.implementation.createHTMLDocument('archived');
  doc.body.innerHTML =
    '<p id="text">Text</p><input id="field"><div contenteditable="true"><span id="editable">e</span></div>' +
    '<div contenteditable="false"><span id="fixed">f</span></div>';
  return doc;
}

function press(target: Element, key: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('forwardKeys', () => {
  it('hands a key pressed in the page to the frame’s element; a handled key does nothing in the page', () => {
    const doc = archivedDocument();
    const frame = document.createElement('iframe');
    const received: string[] = [];
    frame.addEventListener('keydown', (event) => {
      received.push(event.key);
      if (event.key === 'l') event.preventDefault();
    });
    stop = forwardKeys(doc, frame);
    const text = doc.getElementById('text')!;
    expect(press(text, 'l').defaultPrevented).toBe(true);
    expect(press(text, 'q').defaultPrevented).toBe(false);
    expect(press(doc.getElementById('fixed')!, 'j').defaultPrevented).toBe(false);
    expect(received).toEqual(['l', 'q', 'j']);
  });

  it('leaves the page its scrolling keys and what is typed into its fields', () => {
    const doc = archivedDocument();
    const frame = document.createElement('iframe');
    const received: string[] = [];
    frame.addEventListener('keydown', (event) => received.push(event.key));
    stop = forwardKeys(doc, frame);
    for (const key of ['ArrowDown', 'ArrowRight', ' ', 'PageDown', 'End', 'Tab']) {
      press(doc.getElementById('text')!, key);
    }
    press(doc.getElementById('field')!, 'l');
    press(doc.getElementById('editable')!, 'r');
    expect(received).toEqual([]);
  });

  it('stops when told', () => {
    const doc = archivedDocument();
    const frame = document.createElement('iframe');
    const received: string[] = [];
    frame.addEventListener('keydown', (event) => received.push(event.key));
    forwardKeys(doc, frame)();
    press(doc.getElementById('text')!, 'l');
    expect(received).toEqual([]);
  });
});
