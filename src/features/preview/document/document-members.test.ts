import { describe, expect, it } from 'vitest';

import { makeMhtml, utf8 } from '../../../test/archives.ts';
import { previewResponse, type PreviewExt } from './build-preview.ts';
import { reservedMemberNames } from './document-members.ts';

const PAGE = 'https://example.com/page.html';

function sanitized(ext: PreviewExt, bytes: Uint8Array, reservedNames = reservedMemberNames()) {
  const response = previewResponse(ext, bytes, reservedNames);
  if (!response.ok) throw new Error(response.message);
  return new DOMParser().parseFromString(
    response.parts.map(({ template }) => template.strings.join('')).join(''),
    'text/html',
  );
}

/** `tag#id[name]` of every element in the body. */
function named(doc: Document): string[] {
  return Array.from(doc.body.querySelectorAll('*'), (element) => {
    const id = element.getAttribute('id');
    const name = element.getAttribute('name');
    return `${element.localName}${id === null ? '' : `#${id}`}${name === null ? '' : `[${name}]`}`;
  });
}

describe('reservedMemberNames', () => {
  it('lists every member of a document and of a form, their prototypes and Object’s', () => {
    const names = new Set(reservedMemberNames());
    for (const member of [
      'addEventListener',
      'querySelectorAll',
      'querySelector',
      'getElementsByTagName',
      'getElementById',
      'defaultView',
      'body',
      'documentElement',
      'contains',
      'createElement',
      'location',
      'nodeType',
      'constructor',
      '__proto__',
      'toString',
      // A form's own members.
      'elements',
      'action',
      'requestSubmit',
      'parentNode',
    ]) {
      expect(names, member).toContain(member);
    }
    expect(names).not.toContain('photo');
  });

  it('reads a fresh document, not the app’s own (whose named elements are not members)', () => {
    document.body.innerHTML = '<img name="folioNamedImage"><form name="folioNamedForm"></form>';
    expect(reservedMemberNames()).not.toContain('folioNamedImage');
    expect(reservedMemberNames()).not.toContain('folioNamedForm');
    document.body.innerHTML = '';
  });
});

describe('the sanitizer', () => {
  it('drops names and ids that would shadow a member of document or a form, and only those', () => {
    const doc = sanitized(
      'html',
      utf8(
        '<img name="addEventListener" id="querySelectorAll" alt="">' +
          '<img name="photo" id="hero" alt="">' +
          '<form name="body" id="createElement"><input name="defaultView"><input name="q"></form>' +
          '<form name="search"></form>' +
          '<iframe name="documentElement" id="contains"></iframe><iframe name="frame1"></iframe>' +
          '<embed name="getElementsByTagName">' +
          '<a name="querySelector" id="getElementById">an anchor</a>' +
          '<div id="addEventListener">a block</div>',
      ),
    );
    expect(named(doc)).toEqual([
      'img',
      'img#hero[photo]',
      'form',
      'input',
      'input[q]',
      'form[search]',
      'iframe',
      'iframe[frame1]',
      // Anchors and other elements never become named properties of the document.
      'a#getElementById[querySelector]',
      'div#addEventListener',
    ]);
  });

  it('drops them from frames and framesets inside the archive too', () => {
    const frame = 'https://example.com/frame.html';
    const doc = sanitized(
      'mhtml',
      makeMhtml(
        [
          {
            type: 'text/html',
            location: PAGE,
            body: `<frameset cols="50%,50%"><frame name="querySelectorAll" src="${frame}"><frame name="left" src="${frame}"></frameset>`,
          },
          { type: 'text/html', location: frame, body: '<img name="addEventListener" alt="">' },
        ],
        PAGE,
      ),
    );
    expect(named(doc)).toEqual(['div', 'iframe', 'iframe[left]']);
    const inner = new DOMParser().parseFromString(
      doc.querySelector('iframe')!.getAttribute('srcdoc')!,
      'text/html',
    );
    expect(named(inner)).toEqual(['img']);
  });

  it('drops the names and ids of form controls that would shadow a member of their form', () => {
    const doc = sanitized(
      'html',
      utf8(
        '<form id="f"><input name="parentNode"><input id="elements"><select name="action"></select>' +
          '<textarea id="submit"></textarea><button name="nodeType">b</button>' +
          '<fieldset id="parentElement"><output name="length"></output></fieldset>' +
          '<input name="email" id="email"><a href="#x" id="parentNode">a link</a></form>' +
          // Outside a form, `form=` still makes a control a named property of that form.
          '<input form="f" name="ownerDocument">',
      ),
    );
    expect(named(doc)).toEqual([
      'form#f',
      'input',
      'input',
      'select',
      'textarea',
      'button',
      'fieldset',
      'output',
      'input#email[email]',
      // A link is not a form control: its id names nothing of the form.
      'a#parentNode',
      'input',
    ]);
    // The walk up from a control in the form reaches the document (bounded: a clobbered walk
    // would go round forever).
    const control = doc.querySelector('input')!;
    let steps = 0;
    for (let node: Node | null = control; node !== null && steps < 100; node = node.parentNode) {
      steps++;
    }
    expect(steps).toBe(5); // input, form, body, html, the document
  });

  it('uses the names the request brings (the worker has no document of its own)', () => {
    const doc = sanitized(
      'html',
      utf8('<img name="fromTheBrowser" alt=""><img name="other" alt="">'),
      ['fromTheBrowser'],
    );
    expect(named(doc)).toEqual(['img', 'img[other]']);
  });
});
