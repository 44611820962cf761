// What went wrong with one upload, in words a user can act on.
import { isApiError } from '../../api/errors.ts';
import { safeHttpUrl } from '../../lib/urls.ts';
import { FORMAT_LABELS } from './detect-format.ts';
import type { WebpageExt } from './detect-format.ts';

/** The browser could not read the file (moved, deleted, permissions) or the encoder failed. */
export class FileReadError extends Error {
  override readonly name = 'FileReadError';
}

const PARSE_ERROR_PREFIX = 'parse error:';

/**
 * A file the server could not parse (E0001). Its message begins with `parse error:` (Folio's and
 * HamsterBase's words, openapi/archive.yaml); the reason after it is shown, e.g. that the file is
 * truncated.
 */
function unreadable(ext: WebpageExt, message: string): string {
  const sentence = `Could not be read as ${FORMAT_LABELS[ext]}`;
  if (!message.startsWith(PARSE_ERROR_PREFIX)) return sentence;
  const reason = message.slice(PARSE_ERROR_PREFIX.length).trim();
  return reason ? `${sentence}: ${reason}` : sentence;
}

/** The sentence shown for a failed upload of a file sent as `ext`. */
export function describeUploadError(error: unknown, ext: WebpageExt): string {
  if (error instanceof FileReadError) return `Could not read the file: ${error.message}`;
  if (!isApiError(error)) {
    return error instanceof Error && error.message ? error.message : 'The upload failed';
  }
  if (error.code === 'E0001') return unreadable(ext, error.message);
  switch (error.kind) {
    case 'offline':
      return error.message.startsWith('The archive address')
        ? `${error.message} — check Settings`
        : 'Server unreachable';
    case 'invalid-response':
    case 'parse':
      return `Unexpected answer from the server: ${error.message}`;
    case 'http':
      break;
  }
  switch (error.status) {
    case 401:
      return 'Token refused — check Settings';
    case 413:
      return 'Too large for the server';
    case 400:
      return error.message;
    default:
      return `Server error (${error.status ?? 'unknown status'}): ${error.message}`;
  }
}

/** Why a link cannot be sent, or null when it can (an empty link is simply left out). */
export function linkError(link: string): string | null {
  const trimmed = link.trim();
  if (!trimmed) return null;
  if (trimmed.length > 8192) return 'The link is too long';
  return safeHttpUrl(trimmed) ? null : 'Enter an absolute http(s) URL, or leave the link empty';
}
