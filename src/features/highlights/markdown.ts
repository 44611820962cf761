// Highlights as Markdown, for the detail's "Export highlights" and the highlights page's export.
// One function for both, so a page exported alone reads the same as in a list. Pure: no React, no DOM.

export interface MarkdownHighlight {
  /** The quoted text, as stored. */
  text: string;
  note?: string | null;
  /** When the highlight was made or last edited (epoch ms), when the server says. */
  time?: number | null;
}

export interface MarkdownPage {
  title: string;
  /** The page's original address, when it has one. */
  link?: string | null;
  /** Where the page is in Folio (an absolute URL, so the file works outside the app). */
  folioUrl: string;
  highlights: readonly MarkdownHighlight[];
}

/** `2026-11-26`: the date in UTC, the same for every reader of the file. */
export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** Text that Markdown would read as syntax inside a link label: `[`, `]`, `\` and line breaks. */
function linkLabel(text: string): string {
  return (
    text
      .replace(/\s+/g, ' ')
      .replace(/[\\[\]]/g, (c) => `\\${c}`)
      .trim() || 'Untitled'
  );
}

/** Every line of the text quoted, blank lines kept inside the quote. */
function blockquote(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** An address in angle brackets, which Markdown reads as a link whatever it holds but `<>` and spaces. */
function autolink(url: string): string {
  return `<${url.replace(/[<>\s]/g, encodeURIComponent)}>`;
}

function pageSection(page: MarkdownPage): string {
  const lines = [`## [${linkLabel(page.title)}](${autolink(page.folioUrl)})`, ''];
  if (page.link) lines.push(`Original: ${autolink(page.link)}`, '');
  for (const highlight of page.highlights) {
    lines.push(blockquote(highlight.text));
    const note = highlight.note?.trim();
    if (note) lines.push('', note);
    if (highlight.time != null && Number.isFinite(highlight.time)) {
      lines.push('', `— ${isoDate(highlight.time)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The document: a title line with the export date, then one section per page (its title linking to
 * Folio, its original link, then each highlight as a quote followed by its note and date).
 */
export function highlightsMarkdown(
  pages: readonly MarkdownPage[],
  heading = 'Highlights',
  exportedAt: number = Date.now(),
): string {
  const count = pages.reduce((sum, page) => sum + page.highlights.length, 0);
  const head = `# ${heading}\n\n${count} highlight${count === 1 ? '' : 's'} from ${pages.length} page${
    pages.length === 1 ? '' : 's'
  }, exported ${isoDate(exportedAt)}.\n`;
  return [head, ...pages.filter((page) => page.highlights.length > 0).map(pageSection)]
    .join('\n')
    .replace(/\n+$/, '\n');
}
