import { describe, expect, it } from 'vitest';

import { makeUploadedWebpage } from '../../test/uploads.ts';
import type { UploadItem, UploadStatus } from './upload-queue.ts';
import { createUploadSummarizer, describeSummary } from './upload-summary.ts';

function item(
  id: string,
  status: UploadStatus,
  overrides: Partial<Omit<UploadItem, 'id' | 'status'>> = {},
): UploadItem {
  return {
    id,
    file: new File(['x'], `${id}.html`),
    ext: 'html',
    check: null,
    title: '',
    link: '',
    status,
    progress: 0,
    error: status === 'failed' ? 'Server error (500): disk full' : null,
    webpage:
      status === 'added' || status === 'existing'
        ? makeUploadedWebpage({ id: id.padEnd(64, '0'), title: `Page ${id}` })
        : null,
    editing: false,
    ...overrides,
  };
}

const ids = (items: readonly UploadItem[]) => items.map((entry) => entry.id);

describe('createUploadSummarizer', () => {
  it('waits until nothing is on its way, then reports what ended, once', () => {
    const summarize = createUploadSummarizer();
    expect(summarize([item('a', 'added'), item('b', 'uploading')])).toBeNull();
    expect(summarize([item('a', 'added'), item('b', 'queued')])).toBeNull();
    const summary = summarize([item('a', 'added'), item('b', 'failed'), item('c', 'existing')]);
    expect(summary && ids(summary.added)).toEqual(['a']);
    expect(summary && ids(summary.failed)).toEqual(['b']);
    expect(summary && ids(summary.existing)).toEqual(['c']);
    expect(summarize([item('a', 'added'), item('b', 'failed'), item('c', 'existing')])).toBeNull();
  });

  it('reports a failed file again when a retry ends differently', () => {
    const summarize = createUploadSummarizer();
    summarize([item('a', 'failed')]);
    expect(summarize([item('a', 'uploading')])).toBeNull();
    expect(summarize([item('a', 'added')])?.added).toHaveLength(1);
  });

  it('does not wait for files that wait for the user, nor report canceled ones', () => {
    const summarize = createUploadSummarizer();
    const summary = summarize([
      item('a', 'added'),
      item('b', 'blocked'),
      item('c', 'queued', { editing: true }),
      item('d', 'queued', { link: 'not a url' }),
      item('e', 'canceled'),
    ]);
    expect(summary && ids([...summary.added, ...summary.existing, ...summary.failed])).toEqual([
      'a',
    ]);
  });
});

describe('describeSummary', () => {
  it('names a single page and offers it', () => {
    expect(describeSummary({ added: [item('a', 'added')], existing: [], failed: [] })).toEqual({
      tone: 'success',
      message: 'Added “Page a”',
      webpageId: 'a'.padEnd(64, '0'),
      webpageTitle: 'Page a',
    });
    expect(
      describeSummary({ added: [], existing: [item('b', 'existing')], failed: [] }).message,
    ).toBe('“Page b” was already in the archive');
  });

  it('says why a single file failed', () => {
    expect(describeSummary({ added: [], existing: [], failed: [item('c', 'failed')] })).toEqual({
      tone: 'error',
      message: 'Could not upload “c.html”: Server error (500): disk full',
    });
  });

  it('counts a batch, with the failed files listed', () => {
    expect(
      describeSummary({
        added: [item('a', 'added'), item('b', 'added')],
        existing: [item('c', 'existing')],
        failed: [item('d', 'failed')],
      }),
    ).toEqual({
      tone: 'error',
      message: 'Uploads finished: 2 webpages added, 1 already in the archive, 1 failed',
      details: ['d.html: Server error (500): disk full'],
    });
    expect(
      describeSummary({
        added: [item('a', 'added'), item('b', 'added')],
        existing: [],
        failed: [],
      }),
    ).toEqual({ tone: 'success', message: 'Uploads finished: 2 webpages added' });
  });
});
