// The media types a preview may load a resource as, for the app that makes its blob: URLs and for
// the server that links an archive's large parts: only types a browser never runs as a document
// with scripts (images but SVG, fonts, audio and video).

export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-ms-bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/tiff',
  'image/jxl',
  'image/heic',
  'image/heif',
]);

export const FONT_TYPE =
  /^(?:font\/[a-z0-9.+-]+|application\/(?:x-)?font-[a-z0-9.+-]+|application\/vnd\.ms-fontobject)$/;

export const MEDIA_TYPE = /^(?:audio|video)\/[a-z0-9.+-]+$|^text\/vtt$/;

/** Whether a part declared as `type` (lowercase, no parameters) may be served by link. */
export function isLinkableType(type: string): boolean {
  return (
    IMAGE_TYPES.has(type) || FONT_TYPE.test(type) || (MEDIA_TYPE.test(type) && type !== 'text/vtt')
  );
}
