import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';

import { MAX_EXCERPT_LENGTH, MAX_TITLE_LENGTH } from '../../../../shared/webpage-fields.ts';
import { fakeArchive, makeWebpage } from '../../../test/fake-archive.ts';
import { WebpageDetail } from './webpage-detail.tsx';

const id = makeWebpage(11).id;

function renderDetail() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: '/webpages/:id', Component: () => <WebpageDetail webpageId={id} /> }],
    { initialEntries: [`/webpages/${id}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the title and excerpt editors keep the archive’s limits', () => {
  it('take at most MAX_TITLE_LENGTH and MAX_EXCERPT_LENGTH characters, and say so at the limit', async () => {
    fakeArchive([makeWebpage(11, { title: 'Short', excerpt: 'Short too.' })]);
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit title' }));
    const title = screen.getByRole('textbox', { name: 'Title' });
    expect(title).toHaveAttribute('maxLength', String(MAX_TITLE_LENGTH));
    fireEvent.change(title, { target: { value: 'x'.repeat(MAX_TITLE_LENGTH) } });
    expect(title).toHaveAccessibleDescription(
      'The title has reached its limit of 2,000 characters: more is not kept.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Edit excerpt' }));
    const excerpt = screen.getByRole('textbox', { name: 'Excerpt' });
    expect(excerpt).toHaveAttribute('maxLength', String(MAX_EXCERPT_LENGTH));
    expect(excerpt).not.toHaveAccessibleDescription(/limit/);
  });

  it('does not send a title longer than the limit (one stored before it) and says why', async () => {
    const long = 'y'.repeat(MAX_TITLE_LENGTH + 500);
    const archive = fakeArchive([makeWebpage(11, { title: long })]);
    renderDetail();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Edit title' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Unchanged: nothing to save, the editor closes.
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit title' }));
    const title = screen.getByRole('textbox', { name: 'Title' });
    fireEvent.change(title, { target: { value: `${long}z` } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The title can have at most 2,000 characters; this one has 2,501.',
    );
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(archive.writes()).toEqual([]);
  });
});
