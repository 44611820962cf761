import { describe, expect, it } from 'vitest';

import { downloadFileName, MAX_FILE_NAME_STEM } from './file-name.ts';

describe('downloadFileName', () => {
  it('keeps a plain title and adds the extension', () => {
    expect(downloadFileName('An archived article', 'mhtml')).toBe('An archived article.mhtml');
  });

  it('replaces what file systems refuse and trims dots and spaces', () => {
    expect(downloadFileName('  a/b\\c:d*e?"f"<g>|h\u0007 ', 'html')).toBe('a b c d e f g h.html');
    expect(downloadFileName('...hidden...', 'html')).toBe('hidden.html');
    expect(downloadFileName('line\nbreak\ttab', 'html')).toBe('line break tab.html');
  });

  it('falls back when nothing is left, and avoids reserved names', () => {
    expect(downloadFileName('', 'webarchive', 'news.example.com')).toBe(
      'news.example.com.webarchive',
    );
    expect(downloadFileName('/// ...', 'html')).toBe('webpage.html');
    expect(downloadFileName('CON', 'html')).toBe('_CON.html');
  });

  it('cuts long titles without splitting a character', () => {
    const name = downloadFileName('😀'.repeat(150), 'html');
    expect(Array.from(name.slice(0, -'.html'.length))).toHaveLength(MAX_FILE_NAME_STEM);
    expect(name).not.toMatch(/\uFFFD/);
    expect(downloadFileName(`${'a'.repeat(99)} b`, 'html')).toBe(`${'a'.repeat(99)}.html`);
  });
});
