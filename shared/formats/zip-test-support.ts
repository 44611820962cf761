// Zip files for tests: real ones from fflate's zipSync, and hand-written ones whose header fields
// (Unix mode, declared sizes, Zip64 extra field) are set the way `zip` (Info-ZIP) and macOS Archive
// Utility write them (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.14–16, 4.5.3).
import { deflateSync } from 'fflate';
import { crc32 } from './zip-entries.ts';

export interface RawEntry {
  name: string;
  /** The uncompressed bytes (their CRC-32 and size are written unless overridden). */
  data?: Uint8Array;
  /** Deflate (8, the default) or store (0). */
  method?: 0 | 8;
  /** The uncompressed size to declare instead of the real one. */
  declaredSize?: number;
  /** Unix mode to write in the external attributes (made by Unix, like Info-ZIP). */
  unixMode?: number;
  /** Bytes to write as the compressed data instead of the real ones. */
  compressed?: Uint8Array;
}

const encoder = new TextEncoder();

function le(bytes: number, value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (let i = 0; i < bytes; i++) {
    out.push(rest % 256);
    rest = Math.floor(rest / 256);
  }
  return out;
}

/** A zip archive with the given entries, written field by field. */
export function buildZip(entries: readonly RawEntry[]): Uint8Array {
  const local: number[] = [];
  const central: number[] = [];
  for (const entry of entries) {
    const data = entry.data ?? new Uint8Array(0);
    const method = entry.method ?? 8;
    const compressed = entry.compressed ?? (method === 8 ? deflateSync(data) : data);
    const name = encoder.encode(entry.name);
    const size = entry.declaredSize ?? data.length;
    const zip64 = size >= 0xffffffff;
    const extra = zip64
      ? [...le(2, 1), ...le(2, 16), ...le(8, size), ...le(8, compressed.length)]
      : [];
    const crc = crc32(data);
    const offset = local.length;
    const dos = [...le(2, 0), ...le(2, ((2024 - 1980) << 9) | (1 << 5) | 1)];
    local.push(
      ...le(4, 0x04034b50),
      ...le(2, zip64 ? 45 : 20),
      ...le(2, 0x0800),
      ...le(2, method),
      ...dos,
      ...le(4, crc),
      ...le(4, zip64 ? 0xffffffff : compressed.length),
      ...le(4, zip64 ? 0xffffffff : size),
      ...le(2, name.length),
      ...le(2, extra.length),
      ...name,
      ...extra,
      ...compressed,
    );
    const madeBy = entry.unixMode === undefined ? 20 : (3 << 8) | 30;
    const external = entry.unixMode === undefined ? 0 : entry.unixMode * 0x10000;
    central.push(
      ...le(4, 0x02014b50),
      ...le(2, madeBy),
      ...le(2, zip64 ? 45 : 20),
      ...le(2, 0x0800),
      ...le(2, method),
      ...dos,
      ...le(4, crc),
      ...le(4, zip64 ? 0xffffffff : compressed.length),
      ...le(4, zip64 ? 0xffffffff : size),
      ...le(2, name.length),
      ...le(2, extra.length),
      ...le(2, 0),
      ...le(2, 0),
      ...le(2, 0),
      ...le(4, external),
      ...le(4, offset),
      ...name,
      ...extra,
    );
  }
  const end = [
    ...le(4, 0x06054b50),
    ...le(2, 0),
    ...le(2, 0),
    ...le(2, entries.length),
    ...le(2, entries.length),
    ...le(4, central.length),
    ...le(4, local.length),
    ...le(2, 0),
  ];
  return Uint8Array.from([...local, ...central, ...end]);
}

/** S_IFLNK | 0777, as `zip --symlinks` and Archive Utility store a link. */
export const SYMLINK_MODE = 0o120777;
/** S_IFREG | 0644. */
export const FILE_MODE = 0o100644;
