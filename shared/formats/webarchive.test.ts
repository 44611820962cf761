import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './bytes.ts';
import { writeBplist } from '../../test/support/bplist-writer.ts';
import { PlistUid, type PlistDict, type PlistValue } from './bplist.ts';
import { FormatError } from './errors.ts';
import { parseWebarchive } from './webarchive.ts';
import { parseXmlPlist } from './xml-plist.ts';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);
const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function resource(fields: Record<string, PlistValue>): PlistDict {
  return new Map(Object.entries(fields));
}

const MAIN = resource({
  WebResourceData: bytesOf('<html><head><title>Grüße</title></head><body>hi</body></html>'),
  WebResourceFrameName: '',
  WebResourceMIMEType: 'text/html',
  WebResourceTextEncodingName: 'UTF-8',
  WebResourceURL: 'https://example.com/page',
  // Safari stores the HTTP response as a keyed archive; the reader ignores it.
  WebResourceResponse: bytesOf('bplist00…'),
});

const IMAGE = resource({
  WebResourceData: Uint8Array.of(0x89, 0x50, 0x4e, 0x47),
  WebResourceMIMEType: 'image/PNG',
  WebResourceURL: 'https://example.com/a.png',
});

const FRAME = new Map<string, PlistValue>([
  [
    'WebMainResource',
    resource({
      WebResourceData: bytesOf('<p>frame</p>'),
      WebResourceFrameName: '<!--framePath //<!--frame0-->-->',
      WebResourceMIMEType: 'text/html',
      WebResourceTextEncodingName: 'windows-1252',
      WebResourceURL: 'https://ads.example.com/frame',
    }),
  ],
]);

function archive(entries: Array<[string, PlistValue]>): Uint8Array {
  return writeBplist(new Map(entries));
}

describe('parseWebarchive', () => {
  it('reads the main resource, subresources and subframe archives', () => {
    const parsed = parseWebarchive(
      archive([
        ['WebMainResource', MAIN],
        ['WebSubresources', [IMAGE]],
        ['WebSubframeArchives', [FRAME]],
      ]),
    );
    expect(parsed.mainResource).toEqual({
      url: 'https://example.com/page',
      mimeType: 'text/html',
      textEncoding: 'UTF-8',
      frameName: '',
      data: MAIN.get('WebResourceData'),
    });
    expect(textOf(parsed.mainResource.data)).toContain('<title>Grüße</title>');
    expect(parsed.subresources).toEqual([
      {
        url: 'https://example.com/a.png',
        mimeType: 'image/png',
        textEncoding: null,
        data: Uint8Array.of(0x89, 0x50, 0x4e, 0x47),
      },
    ]);
    expect(parsed.subresources[0]).not.toHaveProperty('frameName');
    expect(parsed.subframeArchives).toHaveLength(1);
    const frame = parsed.subframeArchives[0]!;
    expect(frame.mainResource.url).toBe('https://ads.example.com/frame');
    expect(frame.mainResource.textEncoding).toBe('windows-1252');
    expect(frame.mainResource.frameName).toBe('<!--framePath //<!--frame0-->-->');
    expect(frame.subresources).toEqual([]);
    expect(frame.subframeArchives).toEqual([]);
  });

  it('treats missing subresource lists as empty', () => {
    const parsed = parseWebarchive(archive([['WebMainResource', MAIN]]));
    expect(parsed.subresources).toEqual([]);
    expect(parsed.subframeArchives).toEqual([]);
  });

  it('reads an XML property list webarchive', () => {
    const html = '<p>Grüße &amp; more</p>';
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>WebMainResource</key>
	<dict>
		<key>WebResourceData</key>
		<data>
		${encodeBase64(bytesOf(html))}
		</data>
		<key>WebResourceFrameName</key>
		<string></string>
		<key>WebResourceMIMEType</key>
		<string>text/html</string>
		<key>WebResourceTextEncodingName</key>
		<string>UTF-8</string>
		<key>WebResourceURL</key>
		<string>https://example.com/?a=1&amp;b=2</string>
	</dict>
	<!-- a comment -->
	<key>WebSubresources</key>
	<array/>
</dict>
</plist>
`;
    const parsed = parseWebarchive(bytesOf(xml));
    expect(parsed.mainResource.url).toBe('https://example.com/?a=1&b=2');
    expect(textOf(parsed.mainResource.data)).toBe(html);
    expect(parsed.mainResource.frameName).toBe('');
    expect(parsed.subresources).toEqual([]);
  });

  it.each<[string, Uint8Array]>([
    ['empty input', new Uint8Array(0)],
    ['an HTML page', bytesOf('<!DOCTYPE html><html><body>x</body></html>')],
    ['plain text', bytesOf('just words')],
    ['a plist that is not a dictionary', writeBplist(['WebMainResource'])],
    ['a dictionary without WebMainResource', archive([['WebSubresources', []]])],
    ['a main resource that is not a dictionary', archive([['WebMainResource', 'x']])],
    [
      'a main resource without data',
      archive([
        ['WebMainResource', resource({ WebResourceURL: 'u', WebResourceMIMEType: 'text/html' })],
      ]),
    ],
    [
      'a URL that is not a string',
      archive([['WebMainResource', resource({ ...Object.fromEntries(MAIN), WebResourceURL: 42 })]]),
    ],
    [
      'data stored as a string',
      archive([
        ['WebMainResource', resource({ ...Object.fromEntries(MAIN), WebResourceData: '<p>' })],
      ]),
    ],
    [
      'a text encoding that is not a string',
      archive([
        [
          'WebMainResource',
          resource({ ...Object.fromEntries(MAIN), WebResourceTextEncodingName: new PlistUid(1) }),
        ],
      ]),
    ],
    [
      'subresources that are not an array',
      archive([
        ['WebMainResource', MAIN],
        ['WebSubresources', IMAGE],
      ]),
    ],
    [
      'a broken subresource',
      archive([
        ['WebMainResource', MAIN],
        ['WebSubresources', [resource({ WebResourceURL: 'u' })]],
      ]),
    ],
    [
      'a broken subframe',
      archive([
        ['WebMainResource', MAIN],
        ['WebSubframeArchives', [new Map([['nothing', null]])]],
      ]),
    ],
    ['a malformed XML plist', bytesOf('<?xml version="1.0"?><plist><dict><key>a</key></plist>')],
    [
      'an XML plist with bad data',
      bytesOf(
        '<plist><dict><key>WebMainResource</key><dict><key>WebResourceData</key><data>!!!</data>' +
          '<key>WebResourceMIMEType</key><string>text/html</string>' +
          '<key>WebResourceURL</key><string>https://e.com/</string></dict></dict></plist>',
      ),
    ],
  ])('rejects %s with FormatError', (_, input) => {
    expect(() => parseWebarchive(input)).toThrow(FormatError);
  });

  it('never throws anything but FormatError for arbitrary or corrupted input', () => {
    const valid = archive([
      ['WebMainResource', MAIN],
      ['WebSubresources', [IMAGE]],
      ['WebSubframeArchives', [FRAME]],
    ]);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 1024 }),
          fc
            .array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), {
              minLength: 1,
              maxLength: 6,
            })
            .map((edits) => {
              const copy = valid.slice();
              for (const [index, value] of edits) copy[index] = value;
              return copy;
            }),
        ),
        (input) => {
          try {
            parseWebarchive(input);
          } catch (error) {
            expect(error).toBeInstanceOf(FormatError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('parseXmlPlist', () => {
  it('reads every value type', () => {
    const xml = `<plist version="1.0"><array>
      <true/><false/><integer>-42</integer><integer>18446744073709551615</integer>
      <real>1.5</real><real>-inf</real><date>2025-01-01T00:00:00Z</date>
      <string>a &lt;b&gt; &#x65E5;&#26412;</string><string/><data>AQID</data>
      <dict><key>k</key><dict/></dict>
    </array></plist>`;
    expect(parseXmlPlist(bytesOf(xml))).toEqual([
      true,
      false,
      -42,
      18446744073709551615n,
      1.5,
      -Infinity,
      new Date('2025-01-01T00:00:00Z'),
      'a <b> 日本',
      '',
      Uint8Array.of(1, 2, 3),
      new Map([['k', new Map()]]),
    ]);
  });

  it.each([
    ['an unknown element', '<plist><foo/></plist>'],
    ['a bad integer', '<plist><integer>1.5</integer></plist>'],
    ['a bad date', '<plist><date>yesterday</date></plist>'],
    ['a missing </plist>', '<plist><true/>'],
    ['markup inside a string', '<plist><string>a<b>c</b></string></plist>'],
    ['a dict value without key', '<plist><dict><string>x</string></dict></plist>'],
  ])('rejects %s', (_, xml) => {
    expect(() => parseXmlPlist(bytesOf(xml))).toThrow(FormatError);
  });
});
