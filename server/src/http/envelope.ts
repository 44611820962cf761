import type { ErrorCode } from './errors.ts';

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface FailureEnvelope {
  success: false;
  error: ErrorCode | 'E0001';
  message: string;
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

export function failure(error: ErrorCode, message: string): FailureEnvelope {
  return { success: false, error, message };
}

/** The HTTP 200 answer to an upload that cannot be parsed, as HamsterBase sends it. */
export function parseFailure(reason: string): FailureEnvelope {
  return { success: false, error: 'E0001', message: `parse error: ${reason}` };
}
