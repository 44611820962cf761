// The reference for the server's streaming base64 decoder (server/src/upload/base64-decoder.ts):
// strict base64 decided on the whole text at once, the way the server once decoded uploads. Tests
// check that the decoder, however its text is cut, answers as this does.
const ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const VALUE: Record<string, number> = Object.fromEntries(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);

/** The number of bytes a padded standard base64 text decodes to (valid input assumed). */
export function decodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/**
 * Strict standard base64 (RFC 4648 §4): the standard alphabet, padded to a multiple of four, no
 * white space, and zero bits after the last byte (so that every file has exactly one encoding).
 * Returns undefined for anything else.
 */
export function decodeBase64Strict(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !ALPHABET.test(text)) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (padding > 0) {
    const last = VALUE[text.charAt(text.length - padding - 1)] ?? 0;
    if ((last & (padding === 2 ? 0b1111 : 0b11)) !== 0) return undefined;
  }
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === decodedLength(text) ? bytes : undefined;
}
