import type { SearchSegment } from '../api/search-webpages.ts';

export interface HighlightedTextProps {
  segments: readonly SearchSegment[];
}

/** Segments as text, the matches in `<mark>` (built from the array: never parsed as HTML). */
export function HighlightedText({ segments }: HighlightedTextProps) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.type === 'mark' ? (
          <mark key={index} className="search-mark">
            {segment.content}
          </mark>
        ) : (
          <span key={index}>{segment.content}</span>
        ),
      )}
    </>
  );
}

/** The plain text of segments. */
export function segmentsText(segments: readonly SearchSegment[]): string {
  return segments.map((segment) => segment.content).join('');
}
