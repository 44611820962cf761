// The first step of an upload: its JSON body, checked against the one shape the contract allows as
// each byte arrives. That shape is an object of string fields: `content` (the file, base64, of any
// size) goes to a sink as it is read (the streaming base64 decoder), the other fields are kept,
// each up to its own small limit. Anything else is refused at the byte where it shows, before the
// rest of the body is read: a body that is not an object, a field the contract does not know, a
// field that is not a string, `content` given twice, a field over its limit. So no body, whatever
// its shape, is ever held whole: the work is a fixed amount per byte and the memory is the limits
// of the small fields.
import { StringDecoder } from 'node:string_decoder';

/** Receives the characters of the `content` string, in order. */
export interface ContentSink {
  /** A run of characters U+0000..U+00FF, as a latin1 string. */
  ascii(run: string): void;
  /** One UTF-16 code unit above U+00FF. */
  unit(code: number): void;
}

/** A string field other than `content`. */
export interface FieldRule {
  /** The most characters (UTF-16 code units) the field may have. */
  maxLength: number;
  /** The answer to a value longer than that (the contract validator's message). */
  tooLong: string;
}

/** What the body may hold: `content`, and the small string fields by name. */
export interface UploadShape {
  fields: ReadonlyMap<string, FieldRule>;
}

/** The body broke the upload's shape: answered with a 400 and this message. */
export class UploadShapeError extends Error {
  override name = 'UploadShapeError';

  /** `field`: the body field the refusal is about, when it is about one. */
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The body is not JSON. */
export class UploadSyntaxError extends Error {
  override name = 'UploadSyntaxError';
}

/** The body once read: the small fields (the last of a repeated one wins, as in JSON.parse). */
export interface ReadUploadBody {
  fields: Record<string, string>;
  /** Whether there was a `content` string, and whether it was empty. */
  content: 'missing' | 'empty' | 'text';
}

export const CONTENT_KEY = 'content';
export const NOT_AN_OBJECT = 'body must be an object';
export const CONTENT_NOT_A_STRING = 'body/content must be a string';
export const CONTENT_TWICE = 'body/content must be given once';
/** Longer keys are unknown anyway: only this much of one is kept, for the message. */
const MAX_KEY_LENGTH = 64;
/** A top-level scalar (`null`, `12`) is read to tell JSON from not JSON, up to this length. */
const MAX_SCALAR_BYTES = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BOM = [0xef, 0xbb, 0xbf];

const enum State {
  Start,
  TopScalar,
  FirstKey,
  NextKey,
  Key,
  AfterKey,
  BeforeValue,
  String,
  AfterValue,
  End,
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** A byte that starts a JSON value other than a string. */
function startsNonString(byte: number): boolean {
  return (
    byte === 0x7b || // {
    byte === 0x5b || // [
    byte === 0x2d || // -
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x74 || // true
    byte === 0x66 || // false
    byte === 0x6e // null
  );
}

function indexOrEnd(chunk: Buffer, byte: number, from: number): number {
  const index = chunk.indexOf(byte, from);
  return index === -1 ? chunk.length : index;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/** The character of each one-letter escape by its letter's byte; -1 for the others. */
const SIMPLE_ESCAPES = new Int16Array(256).fill(-1);
for (const [letter, char] of Object.entries({
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
})) {
  SIMPLE_ESCAPES[letter.charCodeAt(0)] = char.charCodeAt(0);
}

/** Where the characters of the string being read go. */
interface StringTarget {
  /** A run of characters U+0000..U+00FF, as a latin1 string. */
  ascii(run: string): void;
  /** One UTF-16 code unit above U+00FF. */
  unit(code: number): void;
}

/** Characters gathered before they go to the target at once (escapes come one by one). */
const RUN_LENGTH = 4096;

/**
 * The characters of a JSON string from its raw pieces: printable ASCII runs, UTF-8 bytes of other
 * characters (decoded as Node decodes a body: an invalid sequence is U+FFFD), escaped code units.
 * Characters up to U+00FF reach the target in runs, whatever pieces they came in: a string of
 * escapes costs about what a plain one does.
 */
class StringUnits {
  private readonly utf8 = new StringDecoder('utf8');
  private pending = false;
  /** Characters up to U+00FF not handed over yet, one byte each (latin1). */
  private readonly run = Buffer.alloc(RUN_LENGTH);
  private runLength = 0;

  constructor(private readonly target: StringTarget) {}

  ascii(run: string): void {
    if (this.pending) this.bytes(Buffer.from(run, 'latin1'));
    else this.gather(run);
  }

  bytes(bytes: Buffer): void {
    this.pending = true;
    this.gather(this.utf8.write(bytes));
  }

  unit(code: number): void {
    this.flushUtf8();
    this.gatherUnit(code);
  }

  /** At the end of the string. */
  flush(): void {
    this.flushUtf8();
    this.flushRun();
  }

  private flushUtf8(): void {
    if (!this.pending) return;
    this.pending = false;
    this.gather(this.utf8.end());
  }

  private gather(text: string): void {
    // A long one-byte run goes as it is; anything else character by character.
    // eslint-disable-next-line no-control-regex -- the test is for one-byte characters
    if (text.length > 64 && /^[\x00-\xff]*$/.test(text)) {
      this.flushRun();
      this.target.ascii(text);
      return;
    }
    for (let i = 0; i < text.length; i++) this.gatherUnit(text.charCodeAt(i));
  }

  private gatherUnit(code: number): void {
    if (code > 0xff) {
      this.flushRun();
      this.target.unit(code);
      return;
    }
    this.run[this.runLength++] = code;
    if (this.runLength === RUN_LENGTH) this.flushRun();
  }

  /** Hands over the characters gathered (at the end of each chunk, so none waits for more). */
  flushRun(): void {
    if (this.runLength === 0) return;
    const run = this.run.toString('latin1', 0, this.runLength);
    this.runLength = 0;
    this.target.ascii(run);
  }
}

/** A field's or a key's text, refused past `maxLength` characters. */
class BoundedText implements StringTarget {
  text = '';

  constructor(
    private readonly maxLength: number,
    private readonly onTooLong: (text: string) => never,
  ) {}

  ascii(run: string): void {
    this.add(run);
  }

  unit(code: number): void {
    this.add(String.fromCharCode(code));
  }

  private add(part: string): void {
    this.text += part;
    if (this.text.length > this.maxLength) this.onTooLong(this.text.slice(0, this.maxLength));
  }
}

/**
 * Reads an upload body given in chunks (`write`), then `end`. Throws UploadShapeError or
 * UploadSyntaxError from the call that received the offending byte.
 */
export class UploadBodyReader {
  private state = State.Start;
  /** Bytes of a byte order mark read at the very start (3 once past it, or when there is none). */
  private bom = 0;
  /** Bytes outside strings read so far. */
  private received = 0;
  private scalar = '';
  private key = '';
  private readonly fields: Record<string, string> = {};
  private content: ReadUploadBody['content'] = 'missing';

  // The string being read (a key, `content` or another field).
  private strings: StringUnits | undefined;
  private onStringEnd: () => void = () => undefined;
  /** 0 none, 1 after the backslash, 2..5 reading \uXXXX digits. */
  private escape = 0;
  private hex = 0;
  private stringEmpty = true;

  constructor(
    private readonly shape: UploadShape,
    private readonly openContent: () => ContentSink,
  ) {}

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === State.String) {
        i = this.readString(chunk, i);
        continue;
      }
      const byte = chunk[i]!;
      i += 1;
      this.received += 1;
      if (this.bom < BOM.length && this.state === State.Start) {
        // A byte order mark is skipped, as Fastify's JSON parser does; part of one is not JSON.
        if (byte === BOM[this.bom]) {
          this.bom += 1;
          continue;
        }
        if (this.bom > 0) throw new UploadSyntaxError('the body is not JSON');
        this.bom = BOM.length;
      }
      this.step(byte);
    }
  }

  end(): ReadUploadBody | undefined {
    switch (this.state) {
      case State.Start:
        // No byte at all is no body (the SDK sends a JSON content type without one).
        if (this.received === 0) return undefined;
        throw new UploadSyntaxError('the body is empty');
      case State.TopScalar:
        return this.endScalar();
      case State.End:
        return { fields: this.fields, content: this.content };
      default:
        throw new UploadSyntaxError('the body ends too soon');
    }
  }

  private step(byte: number): void {
    switch (this.state) {
      case State.Start:
        if (isWhitespace(byte)) return;
        if (byte === 0x7b) {
          this.state = State.FirstKey;
        } else if (byte === 0x5b || byte === QUOTE) {
          throw new UploadShapeError(NOT_AN_OBJECT);
        } else if (startsNonString(byte)) {
          this.state = State.TopScalar;
          this.scalar = String.fromCharCode(byte);
        } else {
          throw new UploadSyntaxError('the body is not JSON');
        }
        return;
      case State.TopScalar:
        this.scalar += String.fromCharCode(byte);
        if (this.scalar.length > MAX_SCALAR_BYTES) this.endScalar();
        return;
      case State.FirstKey:
      case State.NextKey:
        if (isWhitespace(byte)) return;
        if (byte === QUOTE) {
          this.startKey();
        } else if (byte === 0x7d && this.state === State.FirstKey) {
          this.state = State.End;
        } else {
          throw new UploadSyntaxError('a key was expected');
        }
        return;
      case State.AfterKey:
        if (isWhitespace(byte)) return;
        if (byte !== 0x3a) throw new UploadSyntaxError('a colon was expected');
        this.state = State.BeforeValue;
        return;
      case State.BeforeValue:
        if (isWhitespace(byte)) return;
        if (byte === QUOTE) {
          this.startValue();
        } else if (startsNonString(byte)) {
          throw new UploadShapeError(
            this.key === CONTENT_KEY ? CONTENT_NOT_A_STRING : `body/${this.key} must be a string`,
            this.key,
          );
        } else {
          throw new UploadSyntaxError('a value was expected');
        }
        return;
      case State.AfterValue:
        if (isWhitespace(byte)) return;
        if (byte === 0x2c) this.state = State.NextKey;
        else if (byte === 0x7d) this.state = State.End;
        else throw new UploadSyntaxError('a comma or the end of the object was expected');
        return;
      case State.End:
        if (!isWhitespace(byte)) throw new UploadSyntaxError('the body goes on after its end');
        return;
      default:
        return;
    }
  }

  /** A top-level value that is not an object: refused if it is JSON, else not JSON. */
  private endScalar(): never {
    let json = false;
    try {
      JSON.parse(this.scalar);
      json = true;
    } catch {
      json = this.scalar.length > MAX_SCALAR_BYTES;
    }
    if (json) throw new UploadShapeError(NOT_AN_OBJECT);
    throw new UploadSyntaxError('the body is not JSON');
  }

  private startKey(): void {
    const key = new BoundedText(MAX_KEY_LENGTH, (start) => {
      throw new UploadShapeError(`body/${start}… is not allowed`);
    });
    this.startString(key, () => {
      if (key.text !== CONTENT_KEY && !this.shape.fields.has(key.text)) {
        throw new UploadShapeError(`body/${key.text} is not allowed`);
      }
      this.key = key.text;
      this.state = State.AfterKey;
    });
  }

  private startValue(): void {
    const key = this.key;
    if (key === CONTENT_KEY) {
      if (this.content !== 'missing') throw new UploadShapeError(CONTENT_TWICE, CONTENT_KEY);
      this.startString(this.openContent(), () => {
        this.content = this.stringEmpty ? 'empty' : 'text';
        this.state = State.AfterValue;
      });
      return;
    }
    const rule = this.shape.fields.get(key)!;
    const text = new BoundedText(rule.maxLength, () => {
      throw new UploadShapeError(rule.tooLong, key);
    });
    this.startString(text, () => {
      // A repeated field: the last one wins, as in JSON.parse.
      this.fields[key] = text.text;
      this.state = State.AfterValue;
    });
  }

  private startString(target: StringTarget, onEnd: () => void): void {
    this.state = State.String;
    this.strings = new StringUnits(target);
    this.onStringEnd = onEnd;
    this.escape = 0;
    this.stringEmpty = true;
  }

  /** Reads string characters from `start`; returns where it stopped (after the closing quote). */
  private readString(chunk: Buffer, start: number): number {
    const strings = this.strings!;
    let i = start;
    // The next quote and backslash from i, found again only once passed (a string of escapes
    // would otherwise scan the rest of the chunk for each one).
    let quote = -1;
    let backslash = -1;
    while (i < chunk.length) {
      if (this.escape > 0) {
        i = this.readEscape(chunk, i, strings);
        continue;
      }
      if (quote < i) quote = indexOrEnd(chunk, QUOTE, i);
      if (backslash < i) backslash = indexOrEnd(chunk, BACKSLASH, i);
      const stop = Math.min(quote, backslash);
      if (stop > i) {
        this.plainRun(chunk, i, stop, strings);
        this.stringEmpty = false;
      }
      i = stop;
      if (i >= chunk.length) break;
      if (stop === quote) {
        strings.flush();
        this.strings = undefined;
        this.onStringEnd();
        return i + 1;
      }
      this.stringEmpty = false;
      // A backslash. A one-letter escape is read here when its letter is in this chunk (a text
      // of escapes is cheap to send: JSON writers may escape every "/").
      const simple = i + 1 < chunk.length ? SIMPLE_ESCAPES[chunk[i + 1]!]! : -1;
      if (simple >= 0) {
        strings.unit(simple);
        i += 2;
      } else {
        this.escape = 1;
        i += 1;
      }
    }
    strings.flushRun();
    return i;
  }

  /** Bytes without quote or backslash: control characters are not JSON. */
  private plainRun(chunk: Buffer, from: number, to: number, strings: StringUnits): void {
    const run = chunk.toString('latin1', from, to);
    // The common case: printable ASCII only (all of base64).
    if (/^[\x20-\x7e]*$/.test(run)) {
      strings.ascii(run);
      return;
    }
    for (let k = from; k < to; k++) {
      if (chunk[k]! < 0x20) throw new UploadSyntaxError('a string holds a control character');
    }
    strings.bytes(chunk.subarray(from, to));
  }

  private readEscape(chunk: Buffer, i: number, strings: StringUnits): number {
    const byte = chunk[i]!;
    if (this.escape === 1) {
      const simple = SIMPLE_ESCAPES[byte]!;
      if (simple >= 0) {
        strings.unit(simple);
        this.escape = 0;
      } else if (byte === 0x75) {
        this.escape = 2;
        this.hex = 0;
      } else {
        throw new UploadSyntaxError('a string holds an invalid escape');
      }
      return i + 1;
    }
    // \uXXXX: escape 2..5 read the four digits.
    const digit = hexValue(byte);
    if (digit === -1) throw new UploadSyntaxError('a string holds an invalid escape');
    this.hex = this.hex * 16 + digit;
    this.escape += 1;
    if (this.escape === 6) {
      strings.unit(this.hex);
      this.escape = 0;
    }
    return i + 1;
  }
}
