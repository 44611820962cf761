// fflate's Zip writes a classic end of central directory, whose entry counts are 16-bit: past
// 65,535 entries they wrap. This adds the Zip64 end record and its locator (APPNOTE 4.3.14-15)
// before it, with the counts set to 0xFFFF, so that readers take the true count from Zip64.
// Offsets stay 32-bit (an export stays under 4 GiB: MAX_EXPORT_ORIGINAL_BYTES).

const EOCD_LENGTH = 22;
const ZIP64_RECORD_LENGTH = 56;
const ZIP64_LOCATOR_LENGTH = 20;

/** `tail` is the zip's last chunk: the central directory and the 22-byte end record. */
export function withZip64End(tail: Uint8Array, entries: number): Uint8Array {
  const eocdAt = tail.length - EOCD_LENGTH;
  const eocd = new DataView(tail.buffer, tail.byteOffset + eocdAt, EOCD_LENGTH);
  if (eocd.getUint32(0, true) !== 0x06054b50) throw new Error('no end of central directory');
  const cdSize = eocd.getUint32(12, true);
  const cdOffset = eocd.getUint32(16, true);
  const out = new Uint8Array(tail.length + ZIP64_RECORD_LENGTH + ZIP64_LOCATOR_LENGTH);
  out.set(tail.subarray(0, eocdAt), 0);
  const view = new DataView(out.buffer);
  let at = eocdAt;
  // Zip64 end of central directory record
  view.setUint32(at, 0x06064b50, true);
  view.setBigUint64(at + 4, BigInt(ZIP64_RECORD_LENGTH - 12), true);
  view.setUint16(at + 12, 45, true);
  view.setUint16(at + 14, 45, true);
  view.setUint32(at + 16, 0, true);
  view.setUint32(at + 20, 0, true);
  view.setBigUint64(at + 24, BigInt(entries), true);
  view.setBigUint64(at + 32, BigInt(entries), true);
  view.setBigUint64(at + 40, BigInt(cdSize), true);
  view.setBigUint64(at + 48, BigInt(cdOffset), true);
  at += ZIP64_RECORD_LENGTH;
  // Zip64 end of central directory locator
  view.setUint32(at, 0x07064b50, true);
  view.setUint32(at + 4, 0, true);
  view.setBigUint64(at + 8, BigInt(cdOffset + cdSize), true);
  view.setUint32(at + 16, 1, true);
  at += ZIP64_LOCATOR_LENGTH;
  // The classic record, its counts saying "see Zip64"
  out.set(tail.subarray(eocdAt), at);
  view.setUint16(at + 8, 0xffff, true);
  view.setUint16(at + 10, 0xffff, true);
  return out;
}
