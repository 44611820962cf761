import { describe, expect, it } from 'vitest';
import { highlightsMarkdown } from './markdown';

const DAY = Date.UTC(2026, 10, 26);

describe('highlightsMarkdown', () => {
  it('writes each page with its highlights, notes and dates', () => {
    const text = highlightsMarkdown(
      [
        {
          title: 'Night trains [review]',
          link: 'https://example.com/trains',
          folioUrl: 'http://localhost:5173/webpages/abc',
          highlights: [
            { text: 'The sleeper left at nine.\n\nWe slept well.', note: 'Book it', time: DAY },
            { text: 'Second', note: null },
          ],
        },
      ],
      'Highlights',
      DAY,
    );
    expect(text).toBe(
      [
        '# Highlights',
        '',
        '2 highlights from 1 page, exported 2026-11-26.',
        '',
        '## [Night trains \\[review\\]](<http://localhost:5173/webpages/abc>)',
        '',
        'Original: <https://example.com/trains>',
        '',
        '> The sleeper left at nine.',
        '>',
        '> We slept well.',
        '',
        'Book it',
        '',
        '— 2026-11-26',
        '',
        '> Second',
        '',
      ].join('\n'),
    );
  });

  it('leaves out pages without highlights and keeps odd links whole', () => {
    const text = highlightsMarkdown(
      [
        { title: '', folioUrl: 'http://x/a', highlights: [] },
        {
          title: 'T',
          link: 'https://e.com/a b<c>',
          folioUrl: 'http://x/b',
          highlights: [{ text: 'q' }],
        },
      ],
      'Highlights',
      DAY,
    );
    expect(text).not.toContain('http://x/a');
    expect(text).toContain('Original: <https://e.com/a%20b%3Cc%3E>');
    expect(text).toContain('1 highlight from 2 pages');
  });
});
