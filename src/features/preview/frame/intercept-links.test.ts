import { afterEach, describe, expect, it, vi } from 'vitest';

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
