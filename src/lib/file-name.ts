// A safe file name for a download: what a title says, without what file systems refuse.

/** Characters Windows, macOS or Linux refuse in a file name, and control characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f"*/:<>?\\|]+/g;
/** Names Windows reserves whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

export const MAX_FILE_NAME_STEM = 100;

/**
 * `<title>.<ext>`: the title with forbidden characters replaced by spaces, whitespace collapsed,
 * no leading or trailing dots or spaces, at most `MAX_FILE_NAME_STEM` characters (never cutting a
 * character in two); `fallback` when nothing is left.
 */
export function downloadFileName(title: string, ext: string, fallback = 'webpage'): string {
  const clean = (text: string) =>
    text
      .normalize('NFC')
      .replace(FORBIDDEN, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[\s.]+|[\s.]+$/g, '');
  let stem = Array.from(clean(title)).slice(0, MAX_FILE_NAME_STEM).join('');
  stem = clean(stem) || clean(fallback) || 'webpage';
  if (RESERVED.test(stem)) stem = `_${stem}`;
  return `${stem}.${ext}`;
}
