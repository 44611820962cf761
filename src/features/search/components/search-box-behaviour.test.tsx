import { act, fireEvent, render } from '@testing-library/react';
import { createPath, Router, type Navigator, type To } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SEARCH_DEBOUNCE_MS, SearchBoxBehaviour } from './search-box-behaviour.tsx';

// The app renders the address it is at, which can lag behind the navigations the field asked
// for: here the test decides which address is rendered, and the navigator only records.
function setUp() {
  const asked: string[] = [];
  const record = (to: To) => asked.push(typeof to === 'string' ? to : createPath(to));
  const navigator: Navigator = {
    createHref: (to) => (typeof to === 'string' ? to : createPath(to)),
    go: () => undefined,
    push: record,
    replace: record,
  };
  const tree = (pathname: string, search = '') => (
    <Router location={{ pathname, search }} navigator={navigator}>
      <form>
        <input id="q" aria-label="Search" />
      </form>
      <SearchBoxBehaviour inputId="q" />
    </Router>
  );
  const view = render(tree('/settings'));
  const field = view.getByLabelText('Search') as HTMLInputElement;
  return {
    asked,
    field,
    /** The app renders its address again, for something else (a query's answer, a timer). */
    renderAgain: () => view.rerender(tree('/settings')),
    /** The app renders `/search?q=…`. */
    showSearch: (q: string) => view.rerender(tree('/search', `?q=${encodeURIComponent(q)}`)),
    /** The user types until the field holds `text`, then pauses as long as the debounce. */
    type: (text: string) => {
      fireEvent.input(field, { target: { value: text } });
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    },
  };
}

describe('the search field', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps what was typed when the address of an earlier search shows after a later one was sent', () => {
    const { asked, field, showSearch, type } = setUp();
    field.focus();
    type('f');
    type('fer');
    expect(asked).toEqual(['/search?q=f', '/search?q=fer']);

    // The first search's address, rendered late: not news, the field keeps "fer".
    showSearch('f');
    expect(field.value).toBe('fer');
    showSearch('fer');
    expect(field.value).toBe('fer');

    // From then on an address from elsewhere (back, forward, a link) is shown in the field.
    showSearch('f');
    expect(field.value).toBe('f');
  });

  it('keeps what was typed when the app renders the old address before the search is shown', () => {
    const { asked, field, renderAgain, showSearch, type } = setUp();
    field.focus();
    type('qu');
    expect(asked).toEqual(['/search?q=qu']);

    // A render for anything else while the navigation waits: the field keeps "qu" and what
    // follows it (it was emptied, and "quokka" searched as "okka").
    renderAgain();
    expect(field.value).toBe('qu');
    type('quokka');
    showSearch('qu');
    showSearch('quokka');
    expect(field.value).toBe('quokka');
    expect(asked).toEqual(['/search?q=qu', '/search?q=quokka']);
  });

  it('sends one search for keys typed within the debounce: the last text', () => {
    const { asked, field } = setUp();
    field.focus();
    for (const text of ['f', 'fe', 'fer', 'ferr', 'ferry']) {
      fireEvent.input(field, { target: { value: text } });
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    }
    expect(asked).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(asked).toEqual(['/search?q=ferry']);
  });

  it('shows the query of an address it did not ask for', () => {
    const { field, showSearch } = setUp();
    showSearch('island');
    expect(field.value).toBe('island');
  });
});
