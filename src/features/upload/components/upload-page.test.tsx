import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../api/errors.ts';
import { toastStore } from '../../../components/toast-store.ts';
import { ToastViewport } from '../../../components/toast-viewport.tsx';
import {
  installBlobReaders,
  SAMPLE_HTML,
  SAMPLE_MHTML,
  makeUploadedWebpage,
} from '../../../test/uploads.ts';
import type * as EncodeFileModule from '../encode-file.ts';
import type { EncodeOptions } from '../upload-queue.ts';
import type * as UploadRequestModule from '../upload-request.ts';
import type { UploadRequest, UploadResult } from '../upload-request.ts';
import { uploadQueue } from '../upload-store.ts';
import { GlobalDropZone } from './global-drop-zone.tsx';
import { UploadPage } from './upload-page.tsx';

// The seams: the worker wrapper and the XHR transport. Everything else is the real feature.
const mocks = vi.hoisted(() => ({
  encodeFile: vi.fn<(file: File, options: EncodeOptions) => Promise<Blob>>(),
  sendUpload: vi.fn<(request: UploadRequest) => Promise<UploadResult>>(),
}));
vi.mock('../encode-file.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof EncodeFileModule>()),
  encodeFile: mocks.encodeFile,
}));
vi.mock('../upload-request.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof UploadRequestModule>()),
  sendUpload: mocks.sendUpload,
}));

// The queue is module-level and remembers the ids it stored: every answer gets a new id.
let lastId = 0;
const newId = () => (++lastId).toString(16).padStart(64, '0');
const stored = (alreadyArchived = false): UploadResult => ({
  webpage: makeUploadedWebpage({ id: newId() }),
  alreadyArchived,
});

/** A promise that rejects with an AbortError when the signal fires, and never settles otherwise. */
function pendingUntilAborted<T>(signal: AbortSignal): Promise<T> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
  });
}

function renderWith(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { queryClient };
}

const row = (name: string) => screen.getByRole('listitem', { name });
const html = (name: string) => new File([SAMPLE_HTML], name, { type: 'text/html' });

beforeAll(installBlobReaders);
beforeEach(() => {
  mocks.encodeFile.mockReset().mockResolvedValue(new Blob(['QUFB']));
  mocks.sendUpload.mockReset().mockImplementation(() => Promise.resolve(stored()));
});
afterEach(() => {
  act(() => {
    for (const item of uploadQueue.getSnapshot()) uploadQueue.remove(item.id);
    toastStore.clear();
  });
});

describe('UploadPage', () => {
  it('offers a labelled drop zone with a keyboard-accessible file chooser', async () => {
    renderWith(<UploadPage />);
    const zone = screen.getByRole('region', { name: 'Drop saved webpages here' });
    const choose = within(zone).getByRole('button', { name: 'Choose files' });
    const input = screen.getByLabelText<HTMLInputElement>('Files to upload');
    expect(input).toHaveAttribute('accept', '.html,.htm,.xhtml,.mhtml,.mht,.webarchive,.zip');
    expect(input.multiple).toBe(true);
    const click = vi.spyOn(input, 'click');
    choose.focus();
    await userEvent.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
  });

  it('uploads chosen files, links the new page and refreshes the lists', async () => {
    const user = userEvent.setup();
    const { queryClient } = renderWith(<UploadPage />);
    const result = stored();
    mocks.sendUpload.mockResolvedValueOnce(result);
    queryClient.setQueryData(['webpages', 'list', {}], { webpages: [] });
    queryClient.setQueryData(['views', 'list'], []);
    queryClient.setQueryData(['version'], { version: '1' });

    await user.upload(screen.getByLabelText('Files to upload'), [html('page.html')]);

    await waitFor(() => expect(within(row('page.html')).getByText('Added')).toBeInTheDocument());
    const link = within(row('page.html')).getByRole('link', { name: 'Open' });
    expect(link).toHaveAttribute('href', `/webpages/${result.webpage.id}`);
    expect(within(row('page.html')).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(mocks.sendUpload).toHaveBeenCalledTimes(1);
    expect(mocks.sendUpload.mock.calls[0]?.[0].fields).toEqual({ ext: 'html' });
    expect(screen.getByRole('status')).toHaveTextContent('page.html: Added');

    expect(queryClient.getQueryState(['webpages', 'list', {}])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['views', 'list'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['version'])?.isInvalidated).toBe(false);
  });

  it('says when a file was already in the archive', async () => {
    mocks.sendUpload.mockResolvedValueOnce(stored(true));
    renderWith(<UploadPage />);
    await userEvent.upload(screen.getByLabelText('Files to upload'), [html('again.html')]);
    await waitFor(() =>
      expect(within(row('again.html')).getByText('Already in the archive')).toBeInTheDocument(),
    );
  });

  it('shows encoding progress on the row', async () => {
    mocks.encodeFile.mockImplementation((_file, { signal, onProgress }) => {
      onProgress(0.42);
      return pendingUntilAborted(signal);
    });
    renderWith(<UploadPage />);
    await userEvent.upload(screen.getByLabelText('Files to upload'), [html('big.html')]);
    const bar = await within(row('big.html')).findByRole('progressbar');
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '42'));
    expect(bar).toHaveAttribute('aria-valuetext', 'Encoding 42%');
    expect(within(row('big.html')).getByText('Encoding 42%')).toBeInTheDocument();
  });

  it('explains a format mismatch before sending and fixes it in one click', async () => {
    const user = userEvent.setup();
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [
      new File([SAMPLE_MHTML], 'saved.html'),
    ]);
    const saved = row('saved.html');
    await waitFor(() =>
      expect(
        within(saved).getByText('This file looks like MHTML but is named .html'),
      ).toBeInTheDocument(),
    );
    expect(mocks.encodeFile).not.toHaveBeenCalled();
    expect(mocks.sendUpload).not.toHaveBeenCalled();

    await user.click(within(saved).getByRole('button', { name: 'Upload as MHTML' }));
    await waitFor(() => expect(within(saved).getByText('Added')).toBeInTheDocument());
    expect(mocks.sendUpload.mock.calls[0]?.[0].fields.ext).toBe('mhtml');
  });

  it('refuses an unsupported file type', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [
      new File(['%PDF-1.4\n\u0000\u0001'], 'report.pdf'),
    ]);
    const report = row('report.pdf');
    await waitFor(() =>
      expect(
        within(report).getByText(
          'Unsupported file type (.pdf): Folio accepts HTML, MHTML and Safari webarchive',
        ),
      ).toBeInTheDocument(),
    );
    expect(within(report).queryByRole('button', { name: /^Upload/ })).toBeNull();
    expect(within(report).queryByText('Title and link')).toBeNull();
    expect(within(report).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });

  it('shows why an upload failed and retries it', async () => {
    mocks.sendUpload.mockRejectedValueOnce(
      new ApiError({ kind: 'parse', code: 'E0001', message: 'parse error: parse file failed' }),
    );
    const user = userEvent.setup();
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [html('bad.html')]);
    const bad = row('bad.html');
    await waitFor(() =>
      expect(
        within(bad).getByText('Could not be read as HTML: parse file failed'),
      ).toBeInTheDocument(),
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'bad.html: Could not be read as HTML: parse file failed',
    );

    await user.click(within(bad).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(bad).getByText('Added')).toBeInTheDocument());
    expect(mocks.sendUpload).toHaveBeenCalledTimes(2);
  });

  it('maps server answers to clear reasons', async () => {
    mocks.sendUpload
      .mockRejectedValueOnce(new ApiError({ kind: 'http', status: 413, message: 'too big' }))
      .mockRejectedValueOnce(new ApiError({ kind: 'offline', message: 'Server unreachable' }));
    renderWith(<UploadPage />);
    await userEvent.upload(screen.getByLabelText('Files to upload'), [
      html('one.html'),
      html('two.html'),
    ]);
    await waitFor(() => {
      expect(within(row('one.html')).getByText('Too large for the server')).toBeInTheDocument();
      expect(within(row('two.html')).getByText('Server unreachable')).toBeInTheDocument();
    });
    expect(screen.getByText('2 files: 2 failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry all failed' })).toBeInTheDocument();
  });

  it('cancels an upload in progress, then removes it', async () => {
    mocks.sendUpload.mockImplementation(({ signal }) => pendingUntilAborted(signal));
    const user = userEvent.setup();
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [html('slow.html')]);
    const slow = row('slow.html');
    await waitFor(() => expect(within(slow).getByText('Uploading 0%')).toBeInTheDocument());

    await user.click(within(slow).getByRole('button', { name: 'Cancel' }));
    expect(within(slow).getByText('Canceled')).toBeInTheDocument();
    expect(mocks.sendUpload.mock.calls[0]?.[0].signal.aborted).toBe(true);
    expect(within(slow).queryByRole('button', { name: 'Cancel' })).toBeNull();

    await user.click(within(slow).getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('listitem', { name: 'slow.html' })).toBeNull();
  });

  it('sends a title and link typed while the file waits, and validates the link', async () => {
    // The first two files hold both slots until the test lets them finish.
    const releases: (() => void)[] = [];
    mocks.encodeFile.mockImplementation(
      (file) =>
        new Promise((resolve) => {
          if (file.name === 'third.html') resolve(new Blob(['QUFB']));
          else releases.push(() => resolve(new Blob(['QUFB'])));
        }),
    );
    const user = userEvent.setup();
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [
      html('first.html'),
      html('second.html'),
      html('third.html'),
    ]);
    const third = row('third.html');
    await waitFor(() => expect(within(third).getByText('Queued')).toBeInTheDocument());

    await user.click(within(third).getByText('Title and link'));
    await user.type(within(third).getByLabelText('Title'), 'My page');
    const link = within(third).getByLabelText('Link');
    await user.type(link, 'example.com');
    expect(link).toHaveAttribute('aria-invalid', 'true');
    expect(link).toHaveAccessibleDescription(
      'third.html Enter an absolute http(s) URL, or leave the link empty',
    );
    await user.clear(link);
    await user.type(link, 'https://example.com/');
    expect(link).toHaveAttribute('aria-invalid', 'false');
    await user.tab(); // leaving the field lets the file start

    act(() => releases.forEach((release) => release()));
    await waitFor(() => expect(within(third).getByText('Added')).toBeInTheDocument());
    const thirdCall = mocks.sendUpload.mock.calls.find(
      ([request]) => request.fields.title === 'My page',
    );
    expect(thirdCall?.[0].fields).toEqual({
      ext: 'html',
      title: 'My page',
      link: 'https://example.com/',
    });
  });

  it('clears finished files', async () => {
    mocks.sendUpload
      .mockResolvedValueOnce(stored())
      .mockRejectedValueOnce(new ApiError({ kind: 'http', status: 401, message: 'Invalid token' }));
    const user = userEvent.setup();
    renderWith(<UploadPage />);
    await user.upload(screen.getByLabelText('Files to upload'), [
      html('ok.html'),
      html('denied.html'),
    ]);
    await waitFor(() =>
      expect(
        within(row('denied.html')).getByText('Token refused — check Settings'),
      ).toBeInTheDocument(),
    );
    await waitFor(() => expect(within(row('ok.html')).getByText('Added')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Clear finished' }));
    expect(screen.queryByRole('listitem', { name: 'ok.html' })).toBeNull();
    expect(row('denied.html')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear finished' })).toBeDisabled();
  });

  it('takes files dropped on the drop zone', async () => {
    renderWith(<UploadPage />);
    const zone = screen.getByRole('region', { name: 'Drop saved webpages here' });
    const dataTransfer = { files: [html('dropped.html')], types: ['Files'], dropEffect: 'none' };
    fireEvent.dragOver(zone, { dataTransfer });
    expect(zone).toHaveClass('upload-drop--active');
    fireEvent.drop(zone, { dataTransfer });
    expect(zone).not.toHaveClass('upload-drop--active');
    await waitFor(() => expect(within(row('dropped.html')).getByText('Added')).toBeInTheDocument());
  });
});

describe('GlobalDropZone', () => {
  it('queues files dropped anywhere and reports them', async () => {
    const onFiles = vi.fn();
    renderWith(<GlobalDropZone onFiles={onFiles} />);
    const file = html('anywhere.html');
    const dataTransfer = { files: [file], types: ['Files'], dropEffect: 'none' };

    fireEvent.dragEnter(document.body, { dataTransfer });
    expect(screen.getByText('Drop to upload to your archive')).toBeInTheDocument();
    const dragOver = fireEvent.dragOver(document.body, { dataTransfer });
    expect(dragOver).toBe(false); // default prevented: the browser will not open the file
    fireEvent.drop(document.body, { dataTransfer });

    expect(screen.queryByText('Drop to upload to your archive')).toBeNull();
    expect(onFiles).toHaveBeenCalledWith([file]);
    expect(uploadQueue.getSnapshot().map((item) => item.file)).toEqual([file]);
  });

  it('ignores drags without files and drops an inner zone handled', () => {
    const onFiles = vi.fn();
    renderWith(<GlobalDropZone onFiles={onFiles} />);
    fireEvent.dragEnter(document.body, { dataTransfer: { types: ['text/plain'], files: [] } });
    expect(screen.queryByText('Drop to upload to your archive')).toBeNull();

    const inner = document.createElement('div');
    document.body.append(inner);
    inner.addEventListener('drop', (event) => event.preventDefault());
    fireEvent.drop(inner, { dataTransfer: { files: [html('x.html')], types: ['Files'] } });
    expect(onFiles).not.toHaveBeenCalled();
    expect(uploadQueue.getSnapshot()).toEqual([]);
    inner.remove();
  });

  it('refreshes the lists after uploads that finished while it was not mounted', async () => {
    // An upload finishes with nothing mounted…
    await act(async () => {
      uploadQueue.enqueue([html('background.html')]);
      await waitFor(() => expect(uploadQueue.getSnapshot()[0]?.status).toBe('added'));
    });
    // …and the lists are refreshed when the layout mounts the drop zone.
    const queryClient = new QueryClient();
    queryClient.setQueryData(['webpages', 'list', {}], { webpages: [] });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <GlobalDropZone />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(queryClient.getQueryState(['webpages', 'list', {}])?.isInvalidated).toBe(true);
  });
});

describe('the message after uploads', () => {
  function Where() {
    return <p>At {useLocation().pathname}</p>;
  }

  /** The app's layout as far as uploads go: the drop zone, the notifications, a page. */
  function renderLayout(path = '/') {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter(
      [
        {
          path: '*',
          Component: () => (
            <>
              <Where />
              <GlobalDropZone />
              <ToastViewport />
            </>
          ),
        },
      ],
      { initialEntries: [path] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  }

  it('says how a batch ended once every file is done, with the failures listed', async () => {
    mocks.sendUpload
      .mockImplementationOnce(() => Promise.resolve(stored()))
      .mockImplementationOnce(() => Promise.resolve(stored()))
      .mockImplementationOnce(() =>
        Promise.reject(new ApiError({ kind: 'http', status: 500, message: 'disk full' })),
      );
    renderLayout('/');
    act(() => {
      uploadQueue.enqueue([html('one.html'), html('two.html'), html('three.html')]);
    });
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('Uploads finished: 2 webpages added, 1 failed');
    expect(message).toHaveTextContent('three.html: Server error (500): disk full');
    // Only once, and only when all were done.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('status')).toBeNull();
    await userEvent.setup().click(within(message).getByRole('button', { name: 'Show uploads' }));
    expect(screen.getByText('At /upload')).toBeInTheDocument();
  });

  it('offers to open the page a single upload added', async () => {
    mocks.sendUpload.mockImplementationOnce(() =>
      Promise.resolve({
        webpage: makeUploadedWebpage({ id: 'f'.repeat(64), title: 'Quokkas' }),
        alreadyArchived: false,
      }),
    );
    renderLayout('/settings');
    act(() => {
      uploadQueue.enqueue([html('quokkas.html')]);
    });
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent('Added “Quokkas”');
    await userEvent.setup().click(within(message).getByRole('button', { name: 'Open “Quokkas”' }));
    expect(screen.getByText(`At /webpages/${'f'.repeat(64)}`)).toBeInTheDocument();
  });
});
