/** Which layer rejected the input. */
export type FormatName = 'base64' | 'mhtml' | 'bplist' | 'xml-plist' | 'webarchive';

/**
 * The input is not a valid instance of `format`. Every parser in `shared/formats` throws only this
 * error for bad input, so callers can tell "bad file" apart from bugs.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  readonly format: FormatName;

  constructor(format: FormatName, message: string, options?: { cause?: unknown }) {
    super(`${format}: ${message}`, options);
    this.format = format;
  }
}
