// Strict standard base64 (RFC 4648 §4), decoded as the text arrives, so that an upload never holds
// its `content` string: the standard alphabet, padded to a multiple of four, no white space, and
// zero bits after the last byte (so that every file has exactly one encoding).

const EQUALS = 0x3d;

function isDataChar(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2b || // +
    code === 0x2f // /
  );
}

function valueOf(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61 + 26;
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 52;
  return code === 0x2b ? 62 : 63;
}

export interface Base64Summary {
  /** Length of the text in UTF-16 code units (what `string.length` would say). */
  length: number;
  /** What the text would decode to if valid: length / 4 × 3 minus the `=` padding it ends with. */
  decodedLength: number;
  /** Whether the text is strict standard base64. */
  valid: boolean;
  /** Bytes handed to the sink (all of them when valid and not over the limit). */
  bytes: number;
  /** The decoded size went over `maxBytes`: the sink stopped receiving bytes. */
  overflow: boolean;
}

/**
 * Feed the text in pieces (`ascii` for runs of one-byte characters, `unit` for any single UTF-16
 * code unit), then `finish`. Decoded bytes go to `sink` in order while the text is valid so far
 * and the decoded size stays within `maxBytes`.
 */
export class StrictBase64Decoder {
  private length = 0;
  /** The last two code units, for the padding that `decodedLength` counts. */
  private last = -1;
  private beforeLast = -1;
  private valid = true;
  private padding = 0;
  /** Data characters not yet decoded (fewer than four). */
  private carry = '';
  private bytes = 0;
  private overflow = false;

  constructor(
    private readonly sink: (bytes: Buffer) => void,
    private readonly maxBytes: number,
  ) {}

  /** A run of characters U+0000..U+00FF given as a latin1 string. */
  ascii(run: string): void {
    if (run.length === 0) return;
    // Data characters before any padding are decoded at once (decodeData checks them as it
    // decodes): a whole run, or its part before the first `=` (most files end with one or two).
    const padding = this.valid && this.padding === 0 ? run.indexOf('=') : 0;
    const data = padding === -1 ? run : run.slice(0, padding);
    if (data.length > 0) {
      this.skim(data);
      if (this.valid) this.decodeData(data);
    }
    // The padding and what follows it, one by one while the text is still valid.
    let i = data.length;
    for (; i < run.length && this.valid; i++) this.unit(run.charCodeAt(i));
    // Invalid: only the length and the last characters still matter.
    if (i < run.length) this.skim(run.slice(i));
  }

  /** One UTF-16 code unit. */
  unit(code: number): void {
    this.length += 1;
    this.track(Number.NaN, code, 1);
    if (!this.valid) return;
    if (code === EQUALS) {
      this.padding += 1;
      if (this.padding > 2) this.valid = false;
    } else if (isDataChar(code) && this.padding === 0) {
      this.decodeData(String.fromCharCode(code));
    } else {
      this.valid = false;
    }
  }

  finish(): Base64Summary {
    const padding = this.last === EQUALS ? (this.beforeLast === EQUALS ? 2 : 1) : 0;
    const decodedLength = (this.length / 4) * 3 - padding;
    let valid =
      this.valid &&
      this.length % 4 === 0 &&
      [...this.carry].every((char) => isDataChar(char.charCodeAt(0)));
    if (valid && this.padding > 0) {
      // The last data character's unused bits must be zero (one encoding per file).
      const lastData = this.carry.charCodeAt(this.carry.length - 1);
      const unused = this.padding === 2 ? 0b1111 : 0b11;
      valid = this.carry.length === 4 - this.padding && (valueOf(lastData) & unused) === 0;
      if (valid) this.emit(Buffer.from(`${this.carry}${'='.repeat(this.padding)}`, 'base64'));
    } else if (valid) {
      valid = this.carry.length === 0;
    }
    return {
      length: this.length,
      decodedLength,
      valid,
      bytes: this.bytes,
      overflow: this.overflow,
    };
  }

  /** Counts a run and notes its last characters. */
  private skim(run: string): void {
    this.length += run.length;
    this.track(run.charCodeAt(run.length - 2), run.charCodeAt(run.length - 1), run.length);
  }

  private track(beforeLast: number, last: number, count: number): void {
    this.beforeLast = count >= 2 ? beforeLast : this.last;
    this.last = last;
  }

  /**
   * Characters before any padding: decodes every complete quantum of four. Node's decoder skips
   * what is not base64 (and takes the URL-safe alphabet), so a quantum is valid only when its
   * bytes encode back to the same text (a native round trip, much faster than a regex).
   */
  private decodeData(run: string): void {
    const text = this.carry === '' ? run : this.carry + run;
    const usable = text.length - (text.length % 4);
    this.carry = text.slice(usable);
    if (usable === 0) return;
    const quanta = usable === text.length ? text : text.slice(0, usable);
    const bytes = Buffer.from(quanta, 'base64');
    if (bytes.length !== (usable / 4) * 3 || bytes.toString('base64') !== quanta) {
      this.valid = false;
      return;
    }
    this.emit(bytes);
  }

  private emit(bytes: Buffer): void {
    if (this.overflow) return;
    this.bytes += bytes.length;
    if (this.bytes > this.maxBytes) {
      this.overflow = true;
      return;
    }
    this.sink(bytes);
  }
}
