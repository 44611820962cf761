import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CONNECTION_STORAGE_KEY, loadConnectionSettings } from '../../lib/connection-settings.ts';
import { takeTokenFromFragment } from './fragment-token.ts';

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('takeTokenFromFragment', () => {
  it('stores the token from #token= and removes it from the address', () => {
    window.history.replaceState(null, '', '/views?x=1#token=s3cr%2Bt+2');
    const entries = window.history.length;

    expect(takeTokenFromFragment()).toBe(true);

    expect(loadConnectionSettings()).toEqual({
      baseUrl: window.location.origin,
      token: 's3cr+t+2',
    });
    expect(JSON.parse(localStorage.getItem(CONNECTION_STORAGE_KEY) ?? '{}')).toMatchObject({
      token: 's3cr+t+2',
    });
    expect(window.location.hash).toBe('');
    expect(window.location.href).not.toContain('s3cr');
    expect(window.location.pathname).toBe('/views');
    expect(window.location.search).toBe('?x=1');
    // Replaced, not pushed: the token is not left in the history either.
    expect(window.history.length).toBe(entries);
  });

  it('keeps other fragment parameters', () => {
    window.history.replaceState(null, '', '/#a=1&token=abc&b=2');
    expect(takeTokenFromFragment()).toBe(true);
    expect(window.location.hash).toBe('#a=1&b=2');
    expect(loadConnectionSettings().token).toBe('abc');
  });

  it('leaves the address and the settings alone without a token', () => {
    window.history.replaceState(null, '', '/webpages/abc#section');
    expect(takeTokenFromFragment()).toBe(false);
    expect(window.location.hash).toBe('#section');
    expect(localStorage.getItem(CONNECTION_STORAGE_KEY)).toBeNull();
    expect(loadConnectionSettings().token).toBe('');
  });
});
