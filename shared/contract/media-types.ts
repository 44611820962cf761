// Media types of Folio's extensions to the contract (openapi/archive.yaml), for the server that
// sends them and the app that asks for them.

/**
 * `getWebpageContent` for an MHTML page, to a client whose `Accept` weighs it highest: the same
 * archive with the bodies of its base64 parts as their bytes (what the preview reads).
 */
export const BINARY_MHTML_TYPE = 'application/vnd.folio.binary-mhtml';

/**
 * The same for a client that can load an archive's large parts by address: binary MHTML in which
 * each large image, font or media part has an empty body and a `Folio-Part-Url` header, the
 * address (relative to the server's root) of a signed, short-lived link to its bytes
 * (`server/src/routes/part-links.ts`). The page's text and styles stay in the answer.
 */
export const LINKED_MHTML_TYPE = 'application/vnd.folio.linked-mhtml';

/** The part header that gives a linked part's address (only the server's linked MHTML has it). */
export const PART_URL_HEADER = 'folio-part-url';
