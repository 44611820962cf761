import { describe, expect, it } from 'vitest';

import { negotiate } from './accept.ts';

const OFFERS = ['application/json', 'application/octet-stream'];

describe('negotiate', () => {
  it('gives the first offer without a usable header', () => {
    expect(negotiate(undefined, OFFERS)).toBe('application/json');
    expect(negotiate('', OFFERS)).toBe('application/json');
    expect(negotiate('*/*', OFFERS)).toBe('application/json');
    expect(negotiate('nonsense, a/b/c', OFFERS)).toBe('application/json');
  });

  it('follows the weights, the most specific range deciding for each offer', () => {
    expect(negotiate('application/octet-stream, application/json;q=0.5', OFFERS)).toBe(
      'application/octet-stream',
    );
    expect(negotiate('application/octet-stream;q=0.4, application/json;q=0.5', OFFERS)).toBe(
      'application/json',
    );
    expect(negotiate('application/*, application/json;q=0.1', OFFERS)).toBe(
      'application/octet-stream',
    );
    expect(negotiate('Application/Octet-Stream ; Q=1', OFFERS)).toBe('application/octet-stream');
    // Equal weights: the server's order of preference.
    expect(negotiate('application/octet-stream, application/json', OFFERS)).toBe(
      'application/json',
    );
  });

  it('refuses what the client refuses, and voids a malformed weight', () => {
    expect(negotiate('text/html', OFFERS)).toBeNull();
    expect(negotiate('*/*, application/json;q=0, application/octet-stream;q=0', OFFERS)).toBeNull();
    expect(negotiate('application/octet-stream;q=2', OFFERS)).toBe('application/json');
    expect(negotiate('application/octet-stream;q=abc, text/html', OFFERS)).toBeNull();
  });
});
