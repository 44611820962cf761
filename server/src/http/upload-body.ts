// Reads an upload's JSON body as it arrives and takes the top-level `content` string out of it: its
// characters go to a sink (the streaming base64 decoder) and the rest of the body, with `content`
// replaced by a one-character stand-in, is kept as a small "skeleton" text. Parsing the skeleton
// with the usual JSON parser gives the same value (and the same errors) as parsing the whole body,
// except for `content` itself, whose JSON validity (escapes, control characters) is checked here.
// Anything unexpected (not an object, odd syntax) is simply copied: the JSON parser judges it.

/** Receives the characters of one `content` string, in order. */
export interface ContentSink {
  /** A run of characters U+0020..U+00FF, as a latin1 string (no quote, no backslash). */
  ascii(run: string): void;
  /** One UTF-16 code unit (escapes, non-ASCII characters). */
  unit(code: number): void;
}

/** The stand-ins for a content string: the validator sees a non-empty or an empty string. */
export const NON_EMPTY_STAND_IN = '"A"';
export const EMPTY_STAND_IN = '""';

const enum State {
  BeforeObject,
  BeforeKey,
  InKey,
  AfterKey,
  BeforeValue,
  InContent,
  InValue,
  AfterValue,
  Copy,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_KEY_BYTES = 256;
/** One sink per content string (a body may repeat the key: the last one wins, as in JSON.parse). */
export type SinkFactory = () => ContentSink;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function isHex(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x46) ||
    (byte >= 0x61 && byte <= 0x66)
  );
}

/** UTF-16 code units of the character a UTF-8 byte starts (0 for continuation bytes). */
function unitsStartedBy(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte < 0xc0) return 0;
  if (byte >= 0xf0 && byte <= 0xf4) return 2;
  return 1;
}

const SIMPLE_ESCAPES: Record<number, number> = {
  0x22: 0x22, // \"
  0x5c: 0x5c, // \\
  0x2f: 0x2f, // \/
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
};

export class UploadBodyReader {
  private state = State.BeforeObject;
  private readonly skeleton: Buffer[] = [];
  private skeletonBytes = 0;
  private key: number[] = [];
  private keyEscape = false;
  private sink: ContentSink | undefined;
  private contentEmpty = true;
  /** Inside a content string: 0 none, 1 after the backslash, 2..5 reading \uXXXX digits. */
  private escape = 0;
  private hex = 0;
  /** Inside another value: nesting, string and escape state. */
  private depth = 0;
  private inString = false;
  private stringEscape = false;
  private invalid = false;

  constructor(private readonly openSink: SinkFactory) {}

  /** False once the content string itself broke JSON's rules (the body is invalid JSON). */
  get validSoFar(): boolean {
    return !this.invalid;
  }

  write(chunk: Buffer): void {
    let copyFrom = 0;
    let i = 0;
    const length = chunk.length;
    while (i < length) {
      if (this.state === State.InContent) {
        i = this.readContent(chunk, i);
        if (this.state !== State.InContent) copyFrom = i; // the closing quote was consumed
        continue;
      }
      if (this.state === State.Copy) {
        i = length;
        break;
      }
      const byte = chunk[i] ?? 0;
      i += 1;
      switch (this.state) {
        case State.BeforeObject:
          if (byte === 0x7b) this.state = State.BeforeKey;
          else if (!isWhitespace(byte)) this.state = State.Copy;
          break;
        case State.BeforeKey:
          if (byte === QUOTE) {
            this.state = State.InKey;
            this.key = [];
            this.keyEscape = false;
          } else if (byte === 0x7d) this.state = State.Copy;
          else if (!isWhitespace(byte) && byte !== 0x2c) this.state = State.Copy;
          break;
        case State.InKey:
          if (this.keyEscape) this.keyEscape = false;
          else if (byte === BACKSLASH) this.keyEscape = true;
          else if (byte === QUOTE) {
            this.state = State.AfterKey;
            break;
          }
          if (this.key.length <= MAX_KEY_BYTES) this.key.push(byte);
          break;
        case State.AfterKey:
          if (byte === 0x3a) this.state = State.BeforeValue;
          else if (!isWhitespace(byte)) this.state = State.Copy;
          break;
        case State.BeforeValue:
          if (isWhitespace(byte)) break;
          if (byte === QUOTE && this.keyIsContent()) {
            // Copy up to the opening quote (excluded); the stand-in replaces the string.
            this.append(chunk.subarray(copyFrom, i - 1));
            this.state = State.InContent;
            this.sink = this.openSink();
            this.contentEmpty = true;
            this.escape = 0;
            break;
          }
          this.state = State.InValue;
          this.depth = 0;
          this.inString = false;
          this.stringEscape = false;
          this.valueByte(byte);
          break;
        case State.InValue:
          this.valueByte(byte);
          break;
        case State.AfterValue:
          if (byte === 0x2c) this.state = State.BeforeKey;
          else if (byte === 0x7d) this.state = State.Copy;
          else if (!isWhitespace(byte)) this.state = State.Copy;
          break;
      }
    }
    if (copyFrom < length && this.state !== State.InContent) this.append(chunk.subarray(copyFrom));
  }

  /** The skeleton text (UTF-8), or undefined when the content string broke JSON's rules. */
  end(): Buffer | undefined {
    if (this.state === State.InContent) this.invalid = true; // unterminated string
    if (this.invalid) return undefined;
    return Buffer.concat(this.skeleton, this.skeletonBytes);
  }

  private append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.skeleton.push(Buffer.from(bytes)); // a copy: the socket reuses its buffers
    this.skeletonBytes += bytes.length;
  }

  private keyIsContent(): boolean {
    if (this.key.length > MAX_KEY_BYTES) return false;
    try {
      return JSON.parse(`"${Buffer.from(this.key).toString('utf8')}"`) === 'content';
    } catch {
      return false;
    }
  }

  /** Another value: ends at a top-level `,` or `}` outside strings and brackets. */
  private valueByte(byte: number): void {
    if (this.inString) {
      if (this.stringEscape) this.stringEscape = false;
      else if (byte === BACKSLASH) this.stringEscape = true;
      else if (byte === QUOTE) this.inString = false;
      return;
    }
    if (byte === QUOTE) this.inString = true;
    else if (byte === 0x7b || byte === 0x5b) this.depth += 1;
    else if ((byte === 0x7d || byte === 0x5d) && this.depth > 0) this.depth -= 1;
    else if (this.depth === 0 && byte === 0x2c) this.state = State.BeforeKey;
    else if (this.depth === 0 && byte === 0x7d) this.state = State.Copy;
  }

  /** Reads content characters from `start`; returns where it stopped (after the closing quote). */
  private readContent(chunk: Buffer, start: number): number {
    const sink = this.sink!;
    let i = start;
    while (i < chunk.length) {
      if (this.escape > 0) {
        i = this.readEscape(chunk, i, sink);
        continue;
      }
      let quote = chunk.indexOf(QUOTE, i);
      if (quote === -1) quote = chunk.length;
      let backslash = chunk.indexOf(BACKSLASH, i);
      if (backslash === -1 || backslash > quote) backslash = quote;
      const stop = backslash;
      if (stop > i) {
        this.plainRun(chunk, i, stop, sink);
        this.contentEmpty = false;
      }
      i = stop;
      if (i >= chunk.length) break;
      if (chunk[i] === QUOTE) {
        this.closeContent();
        return i + 1;
      }
      // A backslash.
      this.escape = 1;
      this.contentEmpty = false;
      i += 1;
    }
    return i;
  }

  /** Bytes without quote or backslash: checked for control characters, then to the sink. */
  private plainRun(chunk: Buffer, from: number, to: number, sink: ContentSink): void {
    const run = chunk.toString('latin1', from, to);
    // The common case: printable ASCII only (all of base64).
    if (/^[\x20-\x7e]*$/.test(run)) {
      sink.ascii(run);
      return;
    }
    for (let k = from; k < to; k++) {
      const byte = chunk[k] ?? 0;
      if (byte < 0x20) {
        this.invalid = true; // JSON forbids raw control characters in strings
        continue;
      }
      if (byte < 0x80) {
        sink.unit(byte);
        continue;
      }
      for (let unit = unitsStartedBy(byte); unit > 0; unit--) sink.unit(0xfffd);
    }
  }

  private readEscape(chunk: Buffer, i: number, sink: ContentSink): number {
    const byte = chunk[i] ?? 0;
    if (this.escape === 1) {
      const simple = SIMPLE_ESCAPES[byte];
      if (simple !== undefined) {
        sink.unit(simple);
        this.escape = 0;
      } else if (byte === 0x75) {
        this.escape = 2;
        this.hex = 0;
      } else {
        this.invalid = true;
        this.escape = 0;
      }
      return i + 1;
    }
    // \uXXXX: escape 2..5 read the four digits.
    if (!isHex(byte)) {
      this.invalid = true;
      this.escape = 0;
      return i; // the byte is read again as content
    }
    this.hex = this.hex * 16 + Number.parseInt(String.fromCharCode(byte), 16);
    this.escape += 1;
    if (this.escape === 6) {
      sink.unit(this.hex);
      this.escape = 0;
    }
    return i + 1;
  }

  private closeContent(): void {
    this.append(Buffer.from(this.contentEmpty ? EMPTY_STAND_IN : NON_EMPTY_STAND_IN));
    this.sink = undefined;
    this.state = State.AfterValue;
  }
}
