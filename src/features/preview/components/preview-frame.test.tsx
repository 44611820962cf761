import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { encodeBase64 } from '../../../../shared/formats/bytes.ts';
import {
  handlePreviewRequest,
  type PreviewRequest,
  type PreviewResponse,
} from '../document/build-preview.ts';
import { runPreviewWorker } from '../frame/run-preview-worker.ts';
import { makeMhtml, PNG, utf8 } from '../../../test/archives.ts';
import { contentOptions } from '../../../test/content-options.ts';
import { PreviewFrame } from './preview-frame.tsx';

/** The worker's job, run in-process (jsdom has no Worker). */
const buildInProcess = (request: PreviewRequest) => handlePreviewRequest(request);

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
    render(
      <PreviewFrame
        webpageId="abc"
        contentOptions={contentOptions}
        ext="html"
        title="My page"
        build={buildInProcess}
      />,
      {
        wrapper,
      },
    );
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
      <PreviewFrame
        webpageId="m1"
        contentOptions={contentOptions}
        ext="mhtml"
        title=""
        build={buildInProcess}
        fullWindow
      />,
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
    render(
      <PreviewFrame
        webpageId="gone"
        contentOptions={contentOptions}
        ext="html"
        title="t"
        build={buildInProcess}
      />,
      {
        wrapper,
      },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This page could not be displayed: webpage not found',
    );
    expect(screen.queryByTitle(/preview of/i)).toBeNull();
  });

  it('says why when the archive cannot be read', async () => {
    answer(200, { success: true, data: encodeBase64(utf8('this is not MIME')) });
    render(
      <PreviewFrame
        webpageId="bad"
        contentOptions={contentOptions}
        ext="mhtml"
        title="t"
        build={buildInProcess}
      />,
      {
        wrapper,
      },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^This page could not be displayed: mhtml: /,
    );
  });
});

/** Stands in for the preview worker: answers with the real build, or never (`runaway`). */
class StandInWorker {
  onmessage: ((event: { data: PreviewResponse }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;

  constructor(private readonly runaway: boolean) {}

  postMessage(request: PreviewRequest) {
    if (this.runaway) return;
    void handlePreviewRequest(request).then((data) => {
      if (!this.terminated) this.onmessage?.({ data });
    });
  }
  terminate() {
    this.terminated = true;
  }
}

describe('PreviewFrame past its time budget', () => {
  it('stops the worker, says the page is too complex, offers the fallback, and previews the next page', async () => {
    const pages: Record<string, string> = {
      '/public/api/v1/webpages/runaway/content': 'runaway',
      '/public/api/v1/webpages/next/content': '<p>The next page</p>',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input) => {
        const path = new URL((input as Request).url).pathname;
        return Response.json({ success: true, data: encodeBase64(utf8(pages[path] ?? '')) });
      }),
    );
    const workers: StandInWorker[] = [];
    // The first worker never answers, like a parse that walks 2^24 frames; a budget of 5 ms.
    const build = (request: PreviewRequest, signal: AbortSignal) =>
      runPreviewWorker(request, signal, {
        budgetMs: 5,
        start: () => {
          const worker = new StandInWorker(workers.length === 0);
          workers.push(worker);
          return worker as unknown as Worker;
        },
      });
    const fallback = <button type="button">Download original</button>;
    const { rerender } = render(
      <PreviewFrame
        webpageId="runaway"
        contentOptions={contentOptions}
        ext="html"
        title="t"
        build={build}
        fallbackActions={fallback}
      />,
      { wrapper },
    );

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^This page is too complex to preview\./);
    expect(alert).toHaveTextContent('took longer than 0.005 s');
    expect(screen.getByRole('button', { name: 'Download original' })).toBeVisible();
    expect(screen.queryByTitle(/preview of/i)).toBeNull();
    expect(workers.map((worker) => worker.terminated)).toEqual([true]);

    rerender(
      <PreviewFrame
        webpageId="next"
        contentOptions={contentOptions}
        ext="html"
        title="Next"
        build={build}
        fallbackActions={fallback}
      />,
    );
    const frame = await screen.findByTitle('Preview of Next');
    expect(frame.getAttribute('srcdoc')).toContain('<p>The next page</p>');
    expect(within(document.body).queryByRole('alert')).toBeNull();
    expect(workers).toHaveLength(2);
  });
});
