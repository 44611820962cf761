// The bounds every reader in shared/formats keeps, whatever a file claims. The server's upload
// parsers and the browser's preview worker run the same readers, so this one table bounds both.
// A file beyond a bound is refused with a FormatError naming it (the API's E0001): it is never
// walked further, so the work done on any input is at most about linear in its size, and the
// memory a few times its size.

const MIB = 1024 * 1024;

/** Nesting of arrays and dictionaries in a property list, binary or XML. */
export const PLIST_MAX_DEPTH = 512;

/**
 * Objects in a property list: the entries of a binary plist's object table, the values of an XML
 * plist. A Safari webarchive of a heavy page has a few thousand.
 */
export const PLIST_MAX_OBJECTS = 1_000_000;

/** Nesting of subframe archives in a webarchive (a frame in a frame in a frame…). */
export const WEBARCHIVE_MAX_FRAME_DEPTH = 32;

/** Frames of a webarchive: the main frame and every subframe archive at any depth. */
export const WEBARCHIVE_MAX_FRAMES = 1_000;

/** Resources of a webarchive: the main resource and subresources of every frame. */
export const WEBARCHIVE_MAX_RESOURCES = 20_000;

/** Leaf parts of an MHTML file, at any nesting. */
export const MHTML_MAX_PARTS = 20_000;

/** Nesting of multiparts in an MHTML file; a deeper multipart is kept as an opaque part. */
export const MHTML_MAX_NESTING = 8;

/** The top-level header block of an MHTML file; larger, it is not a MIME message. */
export const MHTML_MAX_TOP_HEADER_BYTES = MIB;

/** The header block of one MHTML part (Content-Type, Content-Location, Content-ID…). */
export const MHTML_MAX_PART_HEADER_BYTES = 256 * 1024;

/** A multipart boundary (RFC 2046 allows 70 characters). */
export const MHTML_MAX_BOUNDARY_LENGTH = 200;

/**
 * The bytes of all the resources of an archive added up, as a reader hands them out: a
 * webarchive's resource data (one data object listed by two resources counts twice), an MHTML
 * file's decoded part bodies.
 */
export const ARCHIVE_MAX_DECODED_BYTES = 512 * MIB;
