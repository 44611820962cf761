import { describe, expect, it } from 'vitest';

import { ApiError } from './errors.ts';
import { shouldRetry } from './query-client.ts';

describe('shouldRetry', () => {
  const offline = new ApiError({ kind: 'offline', message: 'Server unreachable' });
  const serverError = new ApiError({ kind: 'http', status: 503, message: 'busy' });

  it('retries network failures and 5xx up to twice', () => {
    expect(shouldRetry(0, offline)).toBe(true);
    expect(shouldRetry(1, serverError)).toBe(true);
    expect(shouldRetry(2, offline)).toBe(false);
  });

  it('never retries 4xx, parse errors or foreign answers', () => {
    expect(shouldRetry(0, new ApiError({ kind: 'http', status: 401, message: 'no' }))).toBe(false);
    expect(shouldRetry(0, new ApiError({ kind: 'http', status: 404, message: 'no' }))).toBe(false);
    expect(shouldRetry(0, new ApiError({ kind: 'parse', code: 'E0001', message: 'no' }))).toBe(
      false,
    );
    expect(shouldRetry(0, new ApiError({ kind: 'invalid-response', message: 'no' }))).toBe(false);
  });
});
