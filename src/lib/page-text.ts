// Text the app itself writes into a frame's document (reader mode's header: the title, the byline,
// "N min read") is not the archived page's text: highlights neither quote it nor anchor in it, so
// a highlight made in reader mode is one the faithful preview (and HamsterBase) can find.

/** The attribute that marks such an element (and everything inside it). */
export const APP_TEXT_ATTRIBUTE = 'data-folio-app-text';
