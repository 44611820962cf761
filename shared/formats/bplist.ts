// Binary property list (`bplist00`) reader, for the files CoreFoundation writes. (The writer the
// tests build fixtures with is test/support/bplist-writer.ts.)
//
// Value mapping:
//   null (0x00)        <-> null
//   bool               <-> boolean
//   int (1-16 bytes)   <-> number when it is a safe integer, else bigint
//   real (4/8 bytes)   <-> number
//   date               <-> Date
//   data               <-> Uint8Array (the reader returns a subarray of the input, not a copy)
//   ASCII / UTF-16BE   <-> string
//   UID                <-> PlistUid
//   array / set        <-> PlistValue[] (sets and ordered sets are read as arrays)
//   dict               <-> Map<string, PlistValue> (insertion order kept; a Map cannot be confused
//                          with a prototype, and keys such as "__proto__" are safe)
import { decodeLatin1 } from './bytes.ts';
import { FormatError } from './errors.ts';
import { PLIST_MAX_DEPTH, PLIST_MAX_OBJECTS } from './limits.ts';

/** A keyed-archiver object reference (`CF$UID`). */
export class PlistUid {
  readonly value: number;

  constructor(value: number) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new FormatError('bplist', `invalid UID ${value}`);
    }
    this.value = value;
  }
}

export type PlistDict = Map<string, PlistValue>;

export type PlistValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
  | Uint8Array
  | PlistUid
  | PlistValue[]
  | PlistDict;

const MAGIC = [0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30]; // "bplist00"
const TRAILER_SIZE = 32;
/** Seconds between the Unix epoch and the Core Data epoch (2001-01-01T00:00:00Z). */
const CF_EPOCH_MS = 978_307_200_000;

const utf16beDecoder = new TextDecoder('utf-16be');

function fail(message: string): never {
  throw new FormatError('bplist', message);
}

/** True when `bytes` starts with the `bplist00` magic. */
export function isBplist(bytes: Uint8Array): boolean {
  return MAGIC.every((byte, index) => bytes[index] === byte);
}

function bigintToNumberIfSafe(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}

/**
 * Parses a binary plist. Throws `FormatError` on any structural problem or beyond the limits of
 * limits.ts (objects, nesting). Each object is read once: an object referenced from several places
 * (Apple's writer shares equal strings, numbers and data) is the same JS value at each of them, so
 * the result may be a DAG; a caller that walks it as a tree keeps a visited set (webarchive.ts).
 */
export function parseBplist(bytes: Uint8Array): PlistValue {
  if (bytes.length < MAGIC.length + TRAILER_SIZE + 1 || !isBplist(bytes)) {
    fail('not a binary property list');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  /** Unsigned big-endian integer of 1..8 bytes that must be a safe JS number. */
  const readUint = (pos: number, size: number): number => {
    let value = 0;
    for (let k = 0; k < size; k++) value = value * 256 + bytes[pos + k]!;
    if (!Number.isSafeInteger(value)) fail('integer out of range');
    return value;
  };

  // The trailer is the file's last 32 bytes. A file that starts like a binary plist but whose end
  // is no consistent trailer was cut short (or damaged): said so, since cut files are the common
  // case (an interrupted download or copy).
  const cut = (reason: string): never => fail(`truncated or damaged: ${reason}`);
  const trailer = bytes.length - TRAILER_SIZE;
  const offsetSize = bytes[trailer + 6]!;
  const refSize = bytes[trailer + 7]!;
  if (offsetSize < 1 || offsetSize > 8 || refSize < 1 || refSize > 8) cut('bad trailer sizes');
  const readTrailerUint = (pos: number): number => {
    let value = 0;
    for (let k = 0; k < 8; k++) value = value * 256 + bytes[pos + k]!;
    return Number.isSafeInteger(value) ? value : cut('trailer integer out of range');
  };
  const objectCount = readTrailerUint(trailer + 8);
  const topObject = readTrailerUint(trailer + 16);
  const tableOffset = readTrailerUint(trailer + 24);
  if (objectCount < 1) cut('no objects');
  if (objectCount > PLIST_MAX_OBJECTS) fail(`more than ${PLIST_MAX_OBJECTS} objects`);
  if (topObject >= objectCount) cut('top object out of range');
  if (tableOffset < MAGIC.length || tableOffset > trailer) cut('offset table out of range');
  if (objectCount > (trailer - tableOffset) / offsetSize) cut('offset table truncated');

  const objectsEnd = tableOffset;
  const cache: Array<PlistValue | undefined> = new Array<PlistValue | undefined>(objectCount);
  const state = new Uint8Array(objectCount); // 0 unseen, 1 in progress, 2 done

  const readLength = (pos: number, low: number): [count: number, start: number] => {
    if (low !== 0x0f) return [low, pos + 1];
    const marker = bytes[pos + 1];
    if (marker === undefined || marker >> 4 !== 0x1) fail('bad length marker');
    const size = 1 << (marker & 0x0f);
    if (size > 8) fail('length too large');
    if (pos + 2 + size > objectsEnd) fail('length out of range');
    return [readUint(pos + 2, size), pos + 2 + size];
  };

  const ensureRange = (start: number, byteLength: number) => {
    if (byteLength > objectsEnd - start) fail('object extends past the object area');
  };

  const readRef = (pos: number): number => {
    const ref = readUint(pos, refSize);
    if (ref >= objectCount) fail(`object reference ${ref} out of range`);
    return ref;
  };

  const readObject = (ref: number, depth: number): PlistValue => {
    if (state[ref] === 2) return cache[ref]!;
    if (state[ref] === 1) fail('reference cycle');
    if (depth > PLIST_MAX_DEPTH) fail(`nesting too deep (more than ${PLIST_MAX_DEPTH} levels)`);
    const offset = readUint(tableOffset + ref * offsetSize, offsetSize);
    if (offset < MAGIC.length || offset >= objectsEnd) fail(`object offset ${offset} out of range`);
    state[ref] = 1;
    const value = readValue(offset, depth);
    cache[ref] = value;
    state[ref] = 2;
    return value;
  };

  const readValue = (offset: number, depth: number): PlistValue => {
    const marker = bytes[offset]!;
    const high = marker >> 4;
    const low = marker & 0x0f;
    switch (high) {
      case 0x0:
        if (low === 0x0) return null;
        if (low === 0x8) return false;
        if (low === 0x9) return true;
        return fail(`unsupported singleton 0x${marker.toString(16)}`);
      case 0x1: {
        if (low > 4) fail('integer wider than 16 bytes');
        const size = 1 << low;
        ensureRange(offset + 1, size);
        const pos = offset + 1;
        if (size <= 4) return readUint(pos, size);
        if (size === 8) return bigintToNumberIfSafe(view.getBigInt64(pos));
        const wide = (view.getBigInt64(pos) << 64n) | view.getBigUint64(pos + 8);
        return bigintToNumberIfSafe(wide);
      }
      case 0x2: {
        if (low === 2) {
          ensureRange(offset + 1, 4);
          return view.getFloat32(offset + 1);
        }
        if (low === 3) {
          ensureRange(offset + 1, 8);
          return view.getFloat64(offset + 1);
        }
        return fail('real of unsupported size');
      }
      case 0x3: {
        if (low !== 3) fail('bad date marker');
        ensureRange(offset + 1, 8);
        // Round to the millisecond: the seconds-as-double form is not exact, and Date would truncate.
        return new Date(Math.round(CF_EPOCH_MS + view.getFloat64(offset + 1) * 1000));
      }
      case 0x4: {
        const [count, start] = readLength(offset, low);
        ensureRange(start, count);
        return bytes.subarray(start, start + count);
      }
      case 0x5: {
        const [count, start] = readLength(offset, low);
        ensureRange(start, count);
        return decodeLatin1(bytes.subarray(start, start + count));
      }
      case 0x6: {
        const [count, start] = readLength(offset, low);
        ensureRange(start, count * 2);
        return utf16beDecoder.decode(bytes.subarray(start, start + count * 2));
      }
      case 0x8: {
        const size = low + 1;
        if (size > 8) fail('UID wider than 8 bytes');
        ensureRange(offset + 1, size);
        return new PlistUid(readUint(offset + 1, size));
      }
      case 0xa:
      case 0xb:
      case 0xc: {
        const [count, start] = readLength(offset, low);
        ensureRange(start, count * refSize);
        const array: PlistValue[] = [];
        for (let k = 0; k < count; k++) {
          array.push(readObject(readRef(start + k * refSize), depth + 1));
        }
        return array;
      }
      case 0xd: {
        const [count, start] = readLength(offset, low);
        ensureRange(start, count * 2 * refSize);
        const dict: PlistDict = new Map();
        for (let k = 0; k < count; k++) {
          const key = readObject(readRef(start + k * refSize), depth + 1);
          if (typeof key !== 'string') fail('dictionary key is not a string');
          const valueRef = readRef(start + (count + k) * refSize);
          dict.set(key, readObject(valueRef, depth + 1));
        }
        return dict;
      }
      default:
        return fail(`unknown object marker 0x${marker.toString(16)}`);
    }
  };

  return readObject(topObject, 0);
}
