// The Reader switch of the preview frame, with the reader's chunk loaded for real (lazy import) and
// the preview worker's job run in-process. jsdom does not load srcdoc frames: the reader document
// is checked as the frame's srcdoc.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  appPageBody,
  LONG_ARTICLE,
  longArticleBody,
} from '../../../../test/support/reader-pages.ts';
import { encodeBase64 } from '../../../../shared/formats/bytes.ts';
import { handlePreviewRequest, type PreviewRequest } from '../document/build-preview.ts';
import { PreviewFrame } from '../components/preview-frame.tsx';
import { makeMhtml, PNG, utf8 } from '../../../test/archives.ts';
import { contentOptions } from '../../../test/content-options.ts';

const buildInProcess = (request: PreviewRequest) => Promise.resolve(handlePreviewRequest(request));
const PAGE = 'https://example.com/articles/long.html';

function serve(bytes: Uint8Array) {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => Response.json({ success: true, data: encodeBase64(bytes) })),
  );
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** The detail's use: the mode held by the caller (the route keeps it in the address). */
function WithReader({ ext, initial = false }: { ext: 'html' | 'mhtml'; initial?: boolean }) {
  const [on, setOn] = useState(initial);
  return (
    <PreviewFrame
      webpageId="r1"
      contentOptions={contentOptions}
      ext={ext}
      title="Saved page"
      build={buildInProcess}
      reader={{ on, setOn }}
    />
  );
}

let created = 0;
beforeEach(() => {
  created = 0;
  URL.createObjectURL = (() => `blob:test/${created++}`) as typeof URL.createObjectURL;
  URL.revokeObjectURL = () => undefined;
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the Reader switch', () => {
  it('shows the article in a sandboxed reader frame with the CSP first, and switches back', async () => {
    serve(
      makeMhtml(
        [
          {
            type: 'text/html',
            location: PAGE,
            body: `<html lang="en"><head><title>${LONG_ARTICLE.title}</title></head><body>${longArticleBody({ imageSrc: 'harbour.png', liveOrigin: 'https://live.example' })}</body></html>`,
          },
          { type: 'image/png', location: 'https://example.com/articles/harbour.png', body: PNG },
        ],
        PAGE,
      ),
    );
    const user = userEvent.setup();
    render(<WithReader ext="mhtml" />, { wrapper });
    await screen.findByTitle('Preview of Saved page');
    const toggle = screen.getByRole('button', { name: 'Reader' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.click(toggle);
    const frame = await screen.findByTitle(`Reader view of ${LONG_ARTICLE.title}`);
    expect(screen.queryByTitle('Preview of Saved page')).toBeNull();
    expect(screen.getByRole('button', { name: 'Reader' })).toHaveAttribute('aria-pressed', 'true');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    const srcdoc = frame.getAttribute('srcdoc') ?? '';
    expect(srcdoc).toMatch(
      /^<!DOCTYPE html><html lang="en" dir="auto"[^>]*><head><meta http-equiv="Content-Security-Policy" content="default-src 'none';/,
    );
    expect(srcdoc).toContain(`<h1>${LONG_ARTICLE.title}</h1>`);
    expect(srcdoc).toMatch(/<img [^>]*src="blob:test\/0"/);
    expect(srcdoc).not.toMatch(/<script|onclick|live\.example/);
    expect(screen.getByRole('group', { name: 'Reader settings' })).toBeInTheDocument();

    // `v` switches back.
    await user.keyboard('v');
    expect(await screen.findByTitle('Preview of Saved page')).toBeInTheDocument();
    expect(screen.queryByTitle(/^Reader view of/)).toBeNull();
  });

  it('says when the page has no article and keeps the preview', async () => {
    serve(utf8(`<html><head><title>App</title></head><body>${appPageBody()}</body></html>`));
    render(<WithReader ext="html" initial />, { wrapper });
    const note = await screen.findByText('No article found in this page');
    expect(note).toHaveAttribute('role', 'status');
    expect(screen.getByTitle('Preview of Saved page')).toBeInTheDocument();
    expect(screen.queryByTitle(/^Reader view of/)).toBeNull();
  });
});
