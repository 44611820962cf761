// The messages HamsterBase answers a refused upload with, which its SDK's tests assert and clients
// match on. Folio answers with the same `message` where HamsterBase has one, keeping its own
// `error` code beside it (openapi/archive.yaml, uploadWebpage).

/** A bad or missing `content` or `ext`. */
export const CONTENT_OR_EXT_INVALID = 'content or ext is invalid';
/** A `link` that is not an absolute http(s) URL (HamsterBase's wording, kept as it is). */
export const LINK_INVALID = 'link is invalid. link should start link http://www.example.com.';

/** HamsterBase's message for a refused field of the upload body, by field; else `undefined`. */
export const UPLOAD_FIELD_MESSAGES: Readonly<Record<string, string>> = {
  content: CONTENT_OR_EXT_INVALID,
  ext: CONTENT_OR_EXT_INVALID,
  link: LINK_INVALID,
};

export function uploadFieldMessage(field: string | undefined): string | undefined {
  return field !== undefined && Object.hasOwn(UPLOAD_FIELD_MESSAGES, field)
    ? UPLOAD_FIELD_MESSAGES[field]
    : undefined;
}
