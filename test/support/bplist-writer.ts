// A binary property list (`bplist00`) writer laid out as CoreFoundation's: header, objects, offset
// table, trailer. Test-only: fixtures (including hostile ones) are built with it; the app and the
// server only read plists (shared/formats/bplist.ts). An object (container or data) that appears
// several times in the value is written once and referenced by index from every place, as Apple's
// writer shares objects: that is how a hostile file makes a DAG out of a small file.
import { PlistUid, type PlistValue } from '../../shared/formats/bplist.ts';
import { FormatError } from '../../shared/formats/errors.ts';

const MAGIC = [0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30]; // "bplist00"
/** Milliseconds between the Unix epoch and the Core Data epoch (2001-01-01T00:00:00Z). */
const CF_EPOCH_MS = 978_307_200_000;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const INT128_MIN = -(1n << 127n);
const INT128_MAX = (1n << 127n) - 1n;

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
 * Serialises a value as a `bplist00` file. Objects referenced twice (the same array, Map or
 * Uint8Array) are written once, and equal strings once, as CoreFoundation's writer does; a cycle
 * throws `FormatError`.
 */
export function writeBplist(value: PlistValue): Uint8Array {
  // Pass 1: number the objects (depth first, parents before children) and remember child refs.
  const objects: PlistValue[] = [];
  const children: number[][] = [];
  const indexOf = new Map<object, number>();
  const stringIndex = new Map<string, number>();
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
    if (typeof item === 'string') {
      const known = stringIndex.get(item);
      if (known !== undefined) return known;
      stringIndex.set(item, objects.length);
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
