// The rules that paint highlights (CSS Custom Highlight API: ranges registered in a frame's
// `CSS.highlights` under these names). Every preview document carries them from the start, in its
// preamble: a stylesheet with `::highlight()` rules added to a loaded page restyles every element
// of it (1.3 s in one task for a page of 108,000 elements). The highlight layer adds them only to
// a document that lacks them.

/** The names of the highlights in the frame's registry. */
export const HIGHLIGHT_NAME = 'folio-highlight';
export const FLASH_NAME = 'folio-highlight-flash';

// Yellow under the text, legible on the white canvas the preview gives every page, and on pages
// that are dark by themselves; the flash is stronger, over it.
export const HIGHLIGHT_STYLE = `::highlight(${HIGHLIGHT_NAME}) { background-color: rgb(255 214 10 / 0.5); }
::highlight(${FLASH_NAME}) { background-color: rgb(255 149 0 / 0.85); color: #000; }`;

/** How the style element is marked (`<style data-folio="highlights">`). */
export const HIGHLIGHT_STYLE_ATTRIBUTE = ['data-folio', 'highlights'] as const;

export const HIGHLIGHT_STYLE_ELEMENT = `<style ${HIGHLIGHT_STYLE_ATTRIBUTE[0]}="${HIGHLIGHT_STYLE_ATTRIBUTE[1]}">${HIGHLIGHT_STYLE}</style>`;
