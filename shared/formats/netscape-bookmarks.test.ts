import { describe, expect, it } from 'vitest';

import { BOOKMARKS_MAX_DEPTH, BookmarksError, parseBookmarks } from './netscape-bookmarks.ts';

/** Chrome's `bookmarks_<date>.html` (Edge's is the same). */
const CHROME = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1690000000" LAST_MODIFIED="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://example.com/a" ADD_DATE="1695000000" ICON="data:image/png;base64,iVBORw0KGgo=">Example &amp; A</A>
        <DT><H3 ADD_DATE="1690000001" LAST_MODIFIED="0">Reading</H3>
        <DL><p>
            <DT><A HREF="https://example.com/b" ADD_DATE="1696000000">B</A>
            <DT><A HREF="javascript:alert(1)" ADD_DATE="1696000000">bookmarklet</A>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://example.org/top" ADD_DATE="1697000000">Top</A>
</DL><p>
`;

/** Firefox's `bookmarks.html`: TAGS, LAST_MODIFIED, DD descriptions, place: queries. */
const FIREFOX = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'"></meta>
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>

<DL><p>
    <DT><A HREF="place:parent=toolbar_____&sort=12" ADD_DATE="1" LAST_MODIFIED="1">Recent Tags</A>
    <DT><H3 ADD_DATE="1600000000" LAST_MODIFIED="1600000001">Research</H3>
    <DD>Papers to read
    <DL><p>
        <DT><A HREF="https://arxiv.org/abs/1" ADD_DATE="1600000100" LAST_MODIFIED="1600000200" TAGS="ml,papers">Paper one</A>
        <DD>A description
        <DT><A HREF="https://arxiv.org/abs/1" ADD_DATE="1600000300" TAGS="later">Paper one again</A>
    </DL><p>
</DL>
`;

/** Pocket's `ril_export.html`: lists under h1, `time_added` and `tags`. */
const POCKET = `<!DOCTYPE html>
<html>
  <head><meta http-equiv="Content-Type" content="text/html;charset=UTF-8"><title>Pocket Export</title></head>
  <body>
    <h1>Unread</h1>
    <ul>
      <li><a href="https://blog.example/post" time_added="1580000000" tags="tech,long read">A post</a></li>
      <li><a href="http://news.example/x" time_added="1580000001" tags="">News</a></li>
    </ul>
    <h1>Read Archive</h1>
    <ul>
      <li><a href="https://old.example/" time_added="1500000000" tags="done">Old</a></li>
    </ul>
  </body>
</html>`;

describe('parseBookmarks', () => {
  it('reads a Chrome-shaped file: folders as labels, ADD_DATE in seconds, entities decoded', () => {
    const { bookmarks, skipped } = parseBookmarks(CHROME);
    expect(bookmarks).toEqual([
      {
        url: 'https://example.com/a',
        title: 'Example & A',
        labels: ['Bookmarks bar'],
        addTime: 1695000000000,
      },
      {
        url: 'https://example.com/b',
        title: 'B',
        labels: ['Bookmarks bar', 'Reading'],
        addTime: 1696000000000,
      },
      { url: 'https://example.org/top', title: 'Top', labels: [], addTime: 1697000000000 },
    ]);
    expect(skipped).toBe(1);
  });

  it('reads a Firefox-shaped file: TAGS join the folders, a repeated link is merged, place: skipped', () => {
    const { bookmarks, skipped } = parseBookmarks(FIREFOX);
    expect(bookmarks).toEqual([
      {
        url: 'https://arxiv.org/abs/1',
        title: 'Paper one',
        labels: ['Research', 'ml', 'papers', 'later'],
        addTime: 1600000100000,
      },
    ]);
    expect(skipped).toBe(1);
  });

  it('reads a Pocket-shaped file: time_added and tags', () => {
    const { bookmarks } = parseBookmarks(POCKET);
    expect(bookmarks).toEqual([
      {
        url: 'https://blog.example/post',
        title: 'A post',
        labels: ['tech', 'long read'],
        addTime: 1580000000000,
      },
      { url: 'http://news.example/x', title: 'News', labels: [], addTime: 1580000001000 },
      { url: 'https://old.example/', title: 'Old', labels: ['done'], addTime: 1500000000000 },
    ]);
  });

  it('is bounded: folders nested too deep, too large a file', () => {
    const deep = '<DL><p>'.repeat(BOOKMARKS_MAX_DEPTH + 1);
    expect(() => parseBookmarks(deep)).toThrow(BookmarksError);
    expect(() => parseBookmarks('<DL><p>'.repeat(BOOKMARKS_MAX_DEPTH))).not.toThrow();
    expect(() => parseBookmarks(' '.repeat(33 * 1024 * 1024))).toThrow(/larger than 32 MB/);
  });

  it('takes no markup as text: titles are plain text, cut to their length', () => {
    const { bookmarks } = parseBookmarks(
      `<DL><DT><A HREF="https://x.test/">${'<b>bold</b> '.repeat(300)}</A></DL>`,
    );
    expect(bookmarks[0]?.title).toMatch(/^bold bold/);
    expect(bookmarks[0]?.title.length).toBe(1000);
  });
});
