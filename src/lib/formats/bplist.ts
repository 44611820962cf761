// Binary property list (`bplist00`) reader and writer, as written by CoreFoundation.
//
// Value mapping:
//   null (0x00)        <-> null
//   bool               <-> boolean
//   int (1-16 bytes)   <-> number when it is a safe integer, else bigint
//   real (4/8 bytes)   <-> number (the writer emits non-integral numbers, -0, NaN and ±Infinity as reals)
//   date               <-> Date
//   data               <-> Uint8Array (the reader returns a subarray of the input, not a copy)
//   ASCII / UTF-16BE   <-> string
//   UID                <-> PlistUid
//   array / set        <-> PlistValue[] (sets and ordered sets are read as arrays)
//   dict               <-> Map<string, PlistValue> (insertion order kept; a Map cannot be confused
//                          with a prototype, and keys such as "__proto__" are safe)
import { decodeLatin1 } from './bytes.ts';
import { FormatError } from './errors.ts';

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
const MAX_DEPTH = 512;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const INT128_MIN = -(1n << 127n);
const INT128_MAX = (1n << 127n) - 1n;

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

/** Parses a binary plist. Throws `FormatError` on any structural problem. */
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

  const trailer = bytes.length - TRAILER_SIZE;
  const offsetSize = bytes[trailer + 6]!;
  const refSize = bytes[trailer + 7]!;
  if (offsetSize < 1 || offsetSize > 8 || refSize < 1 || refSize > 8) fail('bad trailer sizes');
  const objectCount = readUint(trailer + 8, 8);
  const topObject = readUint(trailer + 16, 8);
  const tableOffset = readUint(trailer + 24, 8);
  if (objectCount < 1) fail('no objects');
  if (topObject >= objectCount) fail('top object out of range');
  if (tableOffset < MAGIC.length || tableOffset > trailer) fail('offset table out of range');
  if (objectCount > (trailer - tableOffset) / offsetSize) fail('offset table truncated');

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
    if (depth > MAX_DEPTH) fail('nesting too deep');
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

/** A growable byte buffer for the writer. */
class ByteSink {
  private buffer = new Uint8Array(1024);
  length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  bytes(values: Uint8Array): void {
    this.reserve(values.length);
    this.buffer.set(values, this.length);
    this.length += values.length;
  }

  /** Big-endian unsigned integer of `size` bytes (value must fit). */
  uint(value: number, size: number): void {
    this.reserve(size);
    for (let k = size - 1; k >= 0; k--) {
      this.buffer[this.length + k] = value % 256;
      value = Math.floor(value / 256);
    }
    this.length += size;
  }

  view(size: number): DataView {
    this.reserve(size);
    const view = new DataView(this.buffer.buffer, this.length, size);
    this.length += size;
    return view;
  }

  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function bytesNeeded(max: number): number {
  if (max < 0x100) return 1;
  if (max < 0x10000) return 2;
  if (max < 0x100000000) return 4;
  return 8;
}

function writeInt(sink: ByteSink, value: bigint): void {
  if (value >= 0n && value < 0x100n) {
    sink.byte(0x10);
    sink.byte(Number(value));
  } else if (value >= 0n && value < 0x10000n) {
    sink.byte(0x11);
    sink.uint(Number(value), 2);
  } else if (value >= 0n && value < 0x100000000n) {
    sink.byte(0x12);
    sink.uint(Number(value), 4);
  } else if (value >= INT64_MIN && value <= INT64_MAX) {
    sink.byte(0x13);
    sink.view(8).setBigInt64(0, value);
  } else if (value >= INT128_MIN && value <= INT128_MAX) {
    sink.byte(0x14);
    const view = sink.view(16);
    view.setBigInt64(0, value >> 64n);
    view.setBigUint64(8, BigInt.asUintN(64, value));
  } else {
    throw new FormatError('bplist', 'integer does not fit in 128 bits');
  }
}

function writeMarkerWithLength(sink: ByteSink, high: number, count: number): void {
  if (count < 15) {
    sink.byte((high << 4) | count);
  } else {
    sink.byte((high << 4) | 0x0f);
    writeInt(sink, BigInt(count));
  }
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Serialises a value as a `bplist00` file. Objects referenced twice are written once; a cycle throws
 * `FormatError`.
 */
export function writeBplist(value: PlistValue): Uint8Array {
  // Pass 1: number the objects (depth first, parents before children) and remember child refs.
  const objects: PlistValue[] = [];
  const children: number[][] = [];
  const indexOf = new Map<object, number>();
  const inProgress = new Set<object>();

  const visit = (item: PlistValue): number => {
    const container = item instanceof Map || Array.isArray(item);
    if (container || item instanceof Uint8Array) {
      const known = indexOf.get(item);
      if (known !== undefined) {
        if (inProgress.has(item)) throw new FormatError('bplist', 'cannot write a cyclic value');
        return known;
      }
    }
    const index = objects.length;
    objects.push(item);
    children.push([]);
    if (typeof item === 'object' && item !== null && (container || item instanceof Uint8Array)) {
      indexOf.set(item, index);
    }
    if (item instanceof Map) {
      inProgress.add(item);
      const keys: number[] = [];
      const values: number[] = [];
      for (const [key, entry] of item) {
        if (typeof key !== 'string')
          throw new FormatError('bplist', 'dictionary keys must be strings');
        keys.push(visit(key));
        values.push(visit(entry));
      }
      children[index] = [...keys, ...values];
      inProgress.delete(item);
    } else if (Array.isArray(item)) {
      inProgress.add(item);
      children[index] = item.map(visit);
      inProgress.delete(item);
    }
    return index;
  };
  visit(value);

  const refSize = bytesNeeded(objects.length - 1);
  const sink = new ByteSink();
  MAGIC.forEach((byte) => sink.byte(byte));
  const offsets: number[] = [];

  // Pass 2: serialise every object in index order.
  objects.forEach((item, index) => {
    offsets.push(sink.length);
    if (item === null) {
      sink.byte(0x00);
    } else if (typeof item === 'boolean') {
      sink.byte(item ? 0x09 : 0x08);
    } else if (typeof item === 'number') {
      if (Number.isSafeInteger(item) && !Object.is(item, -0)) {
        writeInt(sink, BigInt(item));
      } else {
        sink.byte(0x23);
        sink.view(8).setFloat64(0, item);
      }
    } else if (typeof item === 'bigint') {
      writeInt(sink, item);
    } else if (typeof item === 'string') {
      if (isAscii(item)) {
        writeMarkerWithLength(sink, 0x5, item.length);
        for (let i = 0; i < item.length; i++) sink.byte(item.charCodeAt(i));
      } else {
        writeMarkerWithLength(sink, 0x6, item.length);
        const view = sink.view(item.length * 2);
        for (let i = 0; i < item.length; i++) view.setUint16(i * 2, item.charCodeAt(i));
      }
    } else if (item instanceof Date) {
      const time = item.getTime();
      if (Number.isNaN(time)) throw new FormatError('bplist', 'cannot write an invalid Date');
      sink.byte(0x33);
      sink.view(8).setFloat64(0, (time - CF_EPOCH_MS) / 1000);
    } else if (item instanceof Uint8Array) {
      writeMarkerWithLength(sink, 0x4, item.length);
      sink.bytes(item);
    } else if (item instanceof PlistUid) {
      const size = bytesNeeded(item.value);
      sink.byte(0x80 | (size - 1));
      sink.uint(item.value, size);
    } else {
      const refs = children[index]!;
      const isDict = item instanceof Map;
      writeMarkerWithLength(sink, isDict ? 0xd : 0xa, isDict ? refs.length / 2 : refs.length);
      for (const ref of refs) sink.uint(ref, refSize);
    }
  });

  const tableOffset = sink.length;
  const offsetSize = bytesNeeded(tableOffset);
  for (const offset of offsets) sink.uint(offset, offsetSize);
  for (let k = 0; k < 6; k++) sink.byte(0);
  sink.byte(offsetSize);
  sink.byte(refSize);
  sink.uint(objects.length, 8);
  sink.uint(0, 8);
  sink.uint(tableOffset, 8);
  return sink.result();
}
