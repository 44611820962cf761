/**
 * An uploaded file could not be read as the declared kind of webpage. The API answers it with
 * `{ success: false, error: 'E0001' }`; `reason` is a human explanation for logs and messages.
 */
export class ParseError extends Error {
  override readonly name = 'ParseError';
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`parse error: ${reason}`, options);
    this.reason = reason;
  }
}
