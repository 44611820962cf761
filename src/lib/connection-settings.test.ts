import { describe, expect, it } from 'vitest';

import { apiBaseUrl, normalizeBaseUrl } from './connection-settings.ts';

describe('normalizeBaseUrl', () => {
  it('accepts what people type and gives a canonical base', () => {
    expect(normalizeBaseUrl('http://localhost:5178/')).toBe('http://localhost:5178');
    expect(normalizeBaseUrl('  localhost:5178 ')).toBe('http://localhost:5178');
    expect(normalizeBaseUrl('https://hb.example.com/public/api/v1/')).toBe(
      'https://hb.example.com',
    );
    expect(normalizeBaseUrl('https://example.com/archive//?x=1#y')).toBe(
      'https://example.com/archive',
    );
  });

  it('refuses non-http URLs and empty input', () => {
    expect(normalizeBaseUrl('')).toBeNull();
    expect(normalizeBaseUrl('ftp://example.com')).toBeNull();
    expect(normalizeBaseUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeBaseUrl('http://')).toBeNull();
  });
});

describe('apiBaseUrl', () => {
  it('appends the API prefix once', () => {
    expect(apiBaseUrl('http://a.test:1/')).toBe('http://a.test:1/public/api/v1');
    expect(apiBaseUrl('http://a.test/public/api/v1')).toBe('http://a.test/public/api/v1');
  });
});
