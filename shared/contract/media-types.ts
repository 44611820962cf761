// Media types of Folio's extensions to the contract (openapi/archive.yaml), for the server that
// sends them and the app that asks for them.

/**
 * `getWebpageContent` for an MHTML page, to a client whose `Accept` weighs it highest: the same
 * archive with the bodies of its base64 parts as their bytes (what the preview reads).
 */
export const BINARY_MHTML_TYPE = 'application/vnd.folio.binary-mhtml';
