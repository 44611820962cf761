import { afterEach, describe, expect, it, vi } from 'vitest';

import { framesOf } from './archived-dom.ts';
import { interceptLinks as install, protectFrame } from './intercept-links.ts';

const removers: Array<() => void> = [];

/** Installs the policy on this test's document; removed after the test. */
function interceptLinks(doc: Document, open: (url: string) => void): () => void {
  const remove = install(doc, open);
  removers.push(remove);
  return remove;
}

function click(target: Element, init: MouseEventInit = {}, type = 'click'): boolean {
  return target.dispatchEvent(
    new MouseEvent(type, { bubbles: true, cancelable: true, composed: true, ...init }),
  );
}

afterEach(() => {
  for (const remove of removers.splice(0)) remove();
  for (const name of CLOBBERED) Reflect.deleteProperty(document, name);
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('interceptLinks', () => {
  it('opens http(s) links through the parent and stops the frame from navigating', () => {
    document.body.innerHTML =
      '<a id=a href="https://example.org/x"><span id=inner>text</span></a><a id=b href="http://example.net/">b</a>';
    const open = vi.fn();
    interceptLinks(document, open);
    expect(click(document.getElementById('inner')!)).toBe(false);
    expect(click(document.getElementById('b')!)).toBe(false);
    expect(open.mock.calls).toEqual([['https://example.org/x'], ['http://example.net/']]);
  });

  it('scrolls to #fragment targets inside the document', () => {
    document.body.innerHTML =
      '<a id=a href="#sec%202">go</a><a id=n href="#old">n</a><h2 id="sec 2">S</h2><a name=old></a>';
    const scroll = vi.fn();
    Element.prototype.scrollIntoView = scroll;
    const open = vi.fn();
    interceptLinks(document, open);
    expect(click(document.getElementById('a')!)).toBe(false);
    expect(scroll.mock.contexts[0]).toBe(document.getElementById('sec 2'));
    click(document.getElementById('n')!);
    expect(scroll.mock.contexts[1]).toBe(document.querySelector('a[name=old]'));
    expect(open).not.toHaveBeenCalled();
  });

  it('ignores other schemes but still prevents the navigation', () => {
    document.body.innerHTML =
      '<a id=js href="javascript:alert(1)">x</a><area id=m href="mailto:a@b.c"><a id=plain>no href</a>';
    const open = vi.fn();
    interceptLinks(document, open);
    expect(click(document.getElementById('js')!)).toBe(false);
    expect(click(document.getElementById('m')!)).toBe(false);
    // Not a link: the click goes on as usual.
    expect(click(document.getElementById('plain')!)).toBe(true);
    expect(open).not.toHaveBeenCalled();
  });

  it('catches SVG links and links inside shadow roots', () => {
    document.body.innerHTML =
      '<svg><a id=svg xlink:href="https://svg.example/"><rect id=r></rect></a></svg><div id=host></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<a href="https://shadow.example/"><b id=deep>x</b></a>';
    const open = vi.fn();
    interceptLinks(document, open);
    expect(click(document.getElementById('r')!)).toBe(false);
    expect(click(shadow.getElementById('deep')!)).toBe(false);
    expect(open.mock.calls).toEqual([['https://svg.example/'], ['https://shadow.example/']]);
  });

  it('opens on a middle click, leaves the context menu alone and can be removed', () => {
    document.body.innerHTML = '<a id=a href="https://example.org/">x</a>';
    const open = vi.fn();
    const remove = interceptLinks(document, open);
    const link = document.getElementById('a')!;
    expect(click(link, { button: 1 }, 'auxclick')).toBe(false);
    expect(click(link, { button: 2 }, 'auxclick')).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    remove();
    expect(click(link)).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('refuses drops, which would navigate the frame', () => {
    const open = vi.fn();
    interceptLinks(document, open);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    expect(document.body.dispatchEvent(drop)).toBe(false);
  });
});

describe('protectFrame', () => {
  it('installs the policy in the frame and in frames nested in it', () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const inner = iframe.contentDocument!;
    inner.body.innerHTML = '<a id=a href="https://outer.example/">x</a>';
    const nested = inner.createElement('iframe');
    inner.body.append(nested);
    nested.contentDocument!.body.innerHTML = '<a id=b href="https://nested.example/">y</a>';

    const open = vi.fn();
    const remove = protectFrame(iframe, open);
    expect(click(inner.getElementById('a')!)).toBe(false);
    expect(click(nested.contentDocument!.getElementById('b')!)).toBe(false);
    expect(open.mock.calls).toEqual([['https://outer.example/'], ['https://nested.example/']]);

    remove();
    expect(click(inner.getElementById('a')!)).toBe(true);
    expect(click(nested.contentDocument!.getElementById('b')!)).toBe(true);
  });
});

/** Names an archived page can give its elements to shadow what the app calls. */
const CLOBBERED = [
  'addEventListener',
  'removeEventListener',
  'querySelectorAll',
  'querySelector',
  'getElementsByTagName',
  'getElementById',
  'getElementsByName',
  // Not createTreeWalker: jsdom's own selector engine calls it on the document (a browser's
  // engine does not go through the page's properties; the e2e corpus names it too).
  'defaultView',
  'documentElement',
  'body',
  'contains',
  'createElement',
];

/**
 * What `<img name="…">` does to a document in a browser: `doc[name]` is the element. jsdom has no
 * named properties on Document, so the test defines them the same way on top of the markup.
 */
function clobber(doc: Document): void {
  for (const name of CLOBBERED) {
    const image = doc.createElement('img');
    image.setAttribute('name', name);
    doc.body.append(image);
    Object.defineProperty(doc, name, { value: image, configurable: true });
  }
}

describe('hostile markup', () => {
  it('keeps the policy when the page names elements after the document’s methods', () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const inner = iframe.contentDocument!;
    inner.body.innerHTML = '<a id=a href="https://outer.example/">x</a>';
    const nested = inner.createElement('iframe');
    inner.body.append(nested);
    const deep = nested.contentDocument!;
    deep.body.innerHTML = '<a id=b href="https://nested.example/">y</a>';
    const [a, b] = [inner.getElementById('a')!, deep.getElementById('b')!];
    clobber(inner);
    clobber(deep);

    const open = vi.fn();
    removers.push(protectFrame(iframe, open));
    expect(click(a)).toBe(false);
    expect(click(b)).toBe(false);
    expect(open.mock.calls).toEqual([['https://outer.example/'], ['https://nested.example/']]);
  });

  it('reads links through the prototypes when a form shadows its own properties', () => {
    document.body.innerHTML =
      '<form><input name=localName><input name=nodeType><input name=getAttribute>' +
      '<a id=a href="https://form.example/"><b id=in>x</b></a></form>';
    const form = document.querySelector('form')!;
    for (const name of ['localName', 'nodeType', 'getAttribute', 'closest']) {
      Object.defineProperty(form, name, { value: form.elements[0], configurable: true });
    }
    const open = vi.fn();
    interceptLinks(document, open);
    expect(click(document.getElementById('in')!)).toBe(false);
    expect(open.mock.calls).toEqual([['https://form.example/']]);
  });

  it('finds frames inside shadow roots, at any depth, whatever the document is named', () => {
    document.body.innerHTML = '<iframe id=light></iframe><div id=host></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<iframe id=first></iframe><section><div id=inner-host></div></section>';
    const innerShadow = shadow.getElementById('inner-host')!.attachShadow({ mode: 'open' });
    innerShadow.innerHTML = '<p><iframe id=deep></iframe></p><svg><iframe id=svg></iframe></svg>';
    clobber(document);
    const ids = framesOf(document, true).map((frame) => frame.id);
    expect(ids.sort()).toEqual(['deep', 'first', 'light']);
    // A document without declarative shadow roots is searched the fast way.
    expect(framesOf(document, false).map((frame) => frame.id)).toEqual(['light']);
    for (const name of CLOBBERED) Reflect.deleteProperty(document, name);
  });

  it('scrolls to fragments and to the top in a clobbered document', () => {
    document.body.innerHTML =
      '<a id=a href="#sec">go</a><a id=t href="#top">top</a><h2 id=sec>S</h2>';
    const scroll = vi.fn();
    Element.prototype.scrollIntoView = scroll;
    const [a, t, sec] = ['a', 't', 'sec'].map((id) => document.getElementById(id)!);
    const root = document.documentElement;
    clobber(document);
    interceptLinks(document, vi.fn());
    click(a!);
    click(t!);
    expect(scroll.mock.contexts).toEqual([sec, root]);
    for (const name of CLOBBERED) Reflect.deleteProperty(document, name);
  });
});
