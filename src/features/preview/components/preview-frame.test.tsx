import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { encodeBase64 } from '../../../lib/formats/bytes.ts';
import { handlePreviewRequest, type PreviewRequest } from '../build/build-preview.ts';
import { makeMhtml, PNG, utf8 } from '../testing/archives.ts';
import { PreviewFrame } from './preview-frame.tsx';

/** The worker's job, run in-process (jsdom has no Worker). */
const buildInProcess = (request: PreviewRequest) => Promise.resolve(handlePreviewRequest(request));

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn<typeof fetch>(async () => Response.json(body, { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

let created: string[];
let revoked: string[];

beforeEach(() => {
  created = [];
  revoked = [];
  URL.createObjectURL = (() => {
    created.push(`blob:test/${created.length}`);
    return created.at(-1)!;
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PreviewFrame', () => {
  it('loads the content and shows it in a sandboxed, titled frame with the CSP first', async () => {
    const fetchMock = answer(200, {
      success: true,
      data: encodeBase64(
        utf8(
          '<title>x</title><p onclick="alert(1)">Hello <b>archive</b></p><script>alert(2)</script>',
        ),
      ),
    });
    render(<PreviewFrame webpageId="abc" ext="html" title="My page" build={buildInProcess} />, {
      wrapper,
    });
    expect(screen.getByRole('status')).toHaveTextContent(/loading/i);

    const frame = await screen.findByTitle('Preview of My page');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    const srcdoc = frame.getAttribute('srcdoc') ?? '';
    expect(srcdoc).toMatch(
      /^<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none';/,
    );
    expect(srcdoc).toContain('<p>Hello <b>archive</b></p>');
    expect(srcdoc).not.toContain('alert');
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(new URL(request.url).pathname).toBe('/public/api/v1/webpages/abc/content');
  });

  it('makes blob: URLs for the archive’s resources and revokes them when it goes away', async () => {
    answer(200, {
      success: true,
      data: encodeBase64(
        makeMhtml(
          [
            { type: 'text/html', location: 'https://example.com/', body: '<img src="a.png">' },
            { type: 'image/png', location: 'https://example.com/a.png', body: PNG },
          ],
          'https://example.com/',
        ),
      ),
    });
    const { unmount } = render(
      <PreviewFrame webpageId="m1" ext="mhtml" title="" build={buildInProcess} fullWindow />,
      { wrapper },
    );
    const frame = await screen.findByTitle('Preview of the saved page');
    expect(created).toEqual(['blob:test/0']);
    expect(frame.getAttribute('srcdoc')).toContain('<img src="blob:test/0">');
    expect(frame.closest('.preview--full')).not.toBeNull();
    expect(revoked).toEqual([]);
    unmount();
    expect(revoked).toEqual(['blob:test/0']);
  });

  it('says why when the server refuses', async () => {
    answer(404, { message: 'webpage not found' });
    render(<PreviewFrame webpageId="gone" ext="html" title="t" build={buildInProcess} />, {
      wrapper,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This page could not be displayed: webpage not found',
    );
    expect(screen.queryByTitle(/preview of/i)).toBeNull();
  });

  it('says why when the archive cannot be read', async () => {
    answer(200, { success: true, data: encodeBase64(utf8('this is not MIME')) });
    render(<PreviewFrame webpageId="bad" ext="mhtml" title="t" build={buildInProcess} />, {
      wrapper,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^This page could not be displayed: mhtml: /,
    );
  });
});
