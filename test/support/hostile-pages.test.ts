import { describe, expect, it } from 'vitest';
import { parseWebpage } from '../../server/src/parse/parse-webpage.ts';
import { parseMhtml } from '../../shared/formats/mhtml.ts';
import { parseWebarchive, type Webarchive } from '../../shared/formats/webarchive.ts';
import {
  attackJs,
  hostilePages,
  hostileTechniqueNames,
  type HostilePage,
} from './hostile-pages.ts';

const LIVE = 'http://127.0.0.1:45678';
const pages = hostilePages(LIVE);
const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** Namespace names are identifiers that are never fetched. */
const NAMESPACES = new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xhtml']);

function webarchiveTexts(archive: Webarchive): string[] {
  return [
    archive.mainResource.url,
    utf8(archive.mainResource.data),
    ...archive.subresources.flatMap((resource) => [resource.url, utf8(resource.data)]),
    ...archive.subframeArchives.flatMap(webarchiveTexts),
  ];
}

/** Every piece of text a browser could read URLs from: the documents, resources and their URLs. */
function textsOf(page: HostilePage): string[] {
  switch (page.ext) {
    case 'html':
      return [page.file.toString('utf8')];
    case 'mhtml': {
      const mhtml = parseMhtml(page.file);
      return [
        mhtml.snapshotLocation ?? '',
        ...mhtml.parts.flatMap((part) => [part.contentLocation ?? '', utf8(part.body)]),
      ];
    }
    case 'webarchive':
      return webarchiveTexts(parseWebarchive(page.file));
  }
}

function urlsIn(text: string): string[] {
  return [...text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()&]+/gi)].map(([url]) => url);
}

describe('hostilePages', () => {
  it('builds one page per technique with unique names', () => {
    expect(pages.map(({ name }) => name)).toEqual(hostileTechniqueNames);
    expect(new Set(hostileTechniqueNames).size).toBe(hostileTechniqueNames.length);
    expect(pages.length).toBeGreaterThanOrEqual(50);
    for (const { name } of pages) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('covers the three formats, each accepted by the server parser', () => {
    expect(new Set(pages.map(({ ext }) => ext))).toEqual(new Set(['html', 'mhtml', 'webarchive']));
    for (const page of pages) {
      expect(() => parseWebpage(page.file, page.ext), page.name).not.toThrow();
    }
  });

  it('puts the marker in every page, once, as visible body text', () => {
    for (const page of pages) {
      expect(page.marker).toBe(`SAFE-CONTENT-${page.name}`);
      const text = textsOf(page).join('\n');
      expect(text, page.name).toContain(`<p id="folio-marker">${page.marker}</p>`);
      // No page carries another page's marker.
      const markers = [...text.matchAll(/SAFE-CONTENT-[a-z0-9-]+/g)].map(([marker]) => marker);
      expect(new Set(markers), page.name).toEqual(new Set([page.marker]));
    }
  });

  it('points every URL at this technique on the live web', () => {
    for (const page of pages) {
      const urls = textsOf(page).flatMap(urlsIn);
      // A Set-Cookie meta is the one attack that needs no address.
      if (page.name !== 'meta-set-cookie') expect(urls.length, page.name).toBeGreaterThan(0);
      for (const url of urls) {
        if (NAMESPACES.has(url)) continue;
        expect(url, page.name).toMatch(new RegExp(`^${LIVE.replace(/\./g, '\\.')}/${page.name}/`));
      }
    }
  });

  it('sends every script and handler to the live web under its own name', () => {
    const js = attackJs('inline-script', LIVE);
    expect(js).not.toMatch(/[\s"]/);
    expect(js).toContain(`fetch('${LIVE}/inline-script/beacon'`);
    expect(js).toContain(`top.__pwned='inline-script'`);
    const inline = pages.find(({ name }) => name === 'inline-script');
    expect(inline?.file.toString('utf8')).toContain(`<script>${js}</script>`);
  });

  it('has the sizes it promises', () => {
    const long = pages.find(({ name }) => name === 'long-attribute')!.file.toString('utf8');
    expect(long).toMatch(/title="A{1048576}"/);
    const deep = pages.find(({ name }) => name === 'deep-nesting')!.file.toString('utf8');
    expect(deep.split('<div>').length - 1).toBe(10_000);
    expect(deep.split('</div>').length - 1).toBe(10_000);
  });

  it('builds archives whose parts are what the technique says', () => {
    const byName = (name: string) => pages.find((page) => page.name === name)!;

    const asScript = parseMhtml(byName('mhtml-html-as-script').file);
    expect(asScript.parts.map((part) => part.contentType)).toEqual([
      'text/html',
      'text/html',
      'text/css',
    ]);
    expect(utf8(asScript.parts[2]!.body)).toContain(`url(${LIVE}/mhtml-html-as-script/`);

    const subresource = parseWebarchive(byName('webarchive-html-subresource').file);
    expect(subresource.subresources[0]?.mimeType).toBe('text/html');
    expect(utf8(subresource.mainResource.data)).toMatch(/<script src="[^"]+sub\.html"><\/script>/);
    expect(utf8(subresource.mainResource.data)).toMatch(/<iframe src="[^"]+sub\.html"><\/iframe>/);

    const script = parseWebarchive(byName('webarchive-script-subresource').file);
    expect(script.subresources[0]?.mimeType).toBe('text/javascript');

    const malformed = byName('mhtml-malformed-boundary');
    expect(malformed.ext).toBe('mhtml');
    // Closed (an upload refuses an MHTML without its closing delimiter as truncated), but with a
    // delimiter followed by blanks and a look-alike that is not one.
    expect(malformed.file.toString('latin1')).toMatch(
      /------MultipartBoundary--hostile------\r\n$/,
    );
    expect(malformed.file.toString('latin1')).toContain('--MultipartBoundary--hostile----smuggled');
    expect(parseMhtml(malformed.file).truncated).toBeNull();
  });

  it('marks only HTML pages as provably leaking when opened unprotected', () => {
    for (const page of pages) if (page.leaksUnsandboxed) expect(page.ext, page.name).toBe('html');
    expect(pages.filter((page) => page.leaksUnsandboxed).length).toBeGreaterThan(30);
  });
});

describe('pages with links in frames', () => {
  const linked = pages.filter((page) => page.links !== undefined);

  it('come in the three formats, each family with links inside frames', () => {
    expect(new Set(linked.map(({ ext }) => ext))).toEqual(new Set(['html', 'mhtml', 'webarchive']));
    for (const page of linked) {
      expect(page.links!.length, page.name).toBeGreaterThan(0);
      for (const link of page.links!) {
        expect(link.href, page.name).toBe(`${LIVE}/${page.name}/${link.selector.slice(1)}`);
      }
      if (page.ext === 'html') {
        // srcdoc frames are dropped by the preview: only the page's own links are clicked there.
        expect(
          page.links!.every((link) => link.frames.length === 0),
          page.name,
        ).toBe(true);
        expect(
          page.rawLinks!.some((link) => link.frames.length >= 2),
          page.name,
        ).toBe(true);
      } else {
        expect(
          page.links!.some((link) => link.frames.length >= 2),
          page.name,
        ).toBe(true);
      }
    }
  });

  it('archive every frame the links are in as a subframe of its own', () => {
    const shadow = pages.find(({ name }) => name === 'shadow-root-frames-webarchive')!;
    const archive = parseWebarchive(shadow.file);
    expect(archive.subframeArchives.map((frame) => frame.mainResource.frameName)).toEqual([
      'frame-t',
      'frame-s',
    ]);
    expect(utf8(archive.mainResource.data)).toContain(
      `<template shadowrootmode="open"><p>in a shadow root</p>`,
    );
    const frameset = parseMhtml(pages.find(({ name }) => name === 'frameset-frames-mhtml')!.file);
    const framesetPart = frameset.parts.find((part) =>
      part.contentLocation?.endsWith('/frame-f.html'),
    );
    expect(utf8(framesetPart!.body)).toMatch(/^<!DOCTYPE html>[\s\S]*<frameset cols="50%,50%">/);
  });
});
