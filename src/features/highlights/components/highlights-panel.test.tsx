import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Highlight } from '../api/highlight-edits.ts';
import type { AnchoredHighlight } from '../use-highlight-layer.ts';
import { HighlightsPanel } from './highlights-panel.tsx';

const saved = vi.hoisted(() => ({ files: [] as { text: string; name: string; type: string }[] }));
vi.mock('../../../lib/save-file.ts', () => ({
  saveFile: (bytes: Uint8Array, name: string, type: string) =>
    saved.files.push({ text: new TextDecoder().decode(bytes), name, type }),
}));

afterEach(() => {
  saved.files.length = 0;
});

function highlight(id: string, text: string, note?: string): Highlight {
  return {
    highlightId: id,
    type: 1,
    marker: { meta: { textBefore: '', textAfter: '' } },
    text,
    ...(note === undefined ? {} : { note }),
    editTime: Date.UTC(2026, 10, 26),
  };
}

const ANCHORED: AnchoredHighlight[] = [
  { highlight: highlight('b', 'First in the page', 'a note'), span: { start: 3, end: 10 } },
  { highlight: highlight('a', 'Second in the page'), span: { start: 20, end: 30 } },
  { highlight: highlight('c', 'Gone from the page', 'kept'), span: null },
];

function renderPanel(ready = true) {
  const handlers = {
    onReveal: vi.fn(),
    onSaveNote: vi.fn(() => Promise.resolve()),
    onDelete: vi.fn(),
  };
  render(
    <HighlightsPanel
      page={{
        title: 'A [page]',
        link: 'https://example.org/a',
        folioUrl: 'http://folio/webpages/x',
      }}
      anchored={ANCHORED}
      ready={ready}
      {...handlers}
    />,
  );
  return handlers;
}

describe('HighlightsPanel', () => {
  it('lists the highlights in the order given, the missing one said so once the page is read', () => {
    renderPanel();
    const region = screen.getByRole('region', { name: 'Highlights (3)' });
    const items = within(region).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('First in the page'),
      expect.stringContaining('Second in the page'),
      expect.stringContaining('Gone from the page'),
    ]);
    expect(within(items[2]!).getByText('Not found in the page')).toBeTruthy();
    expect(within(items[2]!).getByText('kept')).toBeTruthy();
  });

  it('does not call a highlight missing before the page is read', () => {
    renderPanel(false);
    expect(screen.queryByText('Not found in the page')).toBeNull();
  });

  it('shows a highlight in the page, edits its note and deletes it', async () => {
    const user = userEvent.setup();
    const handlers = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Second in the page' }));
    expect(handlers.onReveal).toHaveBeenCalledWith('a');

    await user.click(screen.getByRole('button', { name: 'Edit note: First in the page' }));
    const field = screen.getByRole('textbox', { name: 'Note' });
    await user.clear(field);
    await user.type(field, 'a better note');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(handlers.onSaveNote).toHaveBeenCalledWith('b', 'a better note');
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete highlight: Gone from the page' }));
    expect(handlers.onDelete).toHaveBeenCalledWith(ANCHORED[2]!.highlight);
  });

  it('exports the highlights as Markdown, in page order, with notes', async () => {
    const user = userEvent.setup();
    renderPanel();
    await user.click(screen.getByRole('button', { name: 'Export highlights' }));
    expect(saved.files).toHaveLength(1);
    const [file] = saved.files;
    expect(file!.name).toBe('A-page-highlights.md');
    expect(file!.type).toBe('text/markdown');
    expect(file!.text).toContain('## [A \\[page\\]](<http://folio/webpages/x>)');
    expect(file!.text).toContain('Original: <https://example.org/a>');
    const order = ['> First in the page', 'a note', '> Second in the page', '> Gone from the page'];
    const positions = order.map((line) => file!.text.indexOf(line));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });
});
