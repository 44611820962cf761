import { describe, expect, it, vi } from 'vitest';

import type { FormatCheck } from '../detect-format.ts';
import { createImportRunner } from './import-runner.ts';
import type { DoneStore, ImportCandidate, ImportDeps, ImportState } from './import-runner.ts';

function memoryStore(keys = new Set<string>()): () => DoneStore {
  return () => ({ has: (key) => keys.has(key), add: (key) => keys.add(key), flush: () => {} });
}

function candidate(name: string, text = `<title>${name}</title>`): ImportCandidate {
  return {
    name,
    key: name,
    size: text.length,
    load: vi.fn(() => Promise.resolve(new Blob([text]))),
  };
}

function deps(overrides: Partial<ImportDeps> = {}): ImportDeps {
  return {
    check: (_file, name): Promise<FormatCheck> =>
      Promise.resolve(
        name.includes('cut')
          ? { status: 'truncated', ext: 'mhtml', message: 'This file was cut short' }
          : { status: 'ok', ext: 'html' },
      ),
    encode: (file) => Promise.resolve(file),
    send: (_content, _ext) => Promise.resolve({ id: 'x', alreadyArchived: false }),
    describeError: (error) => ({ reason: String(error), stop: false }),
    doneStore: memoryStore(),
    ...overrides,
  };
}

function finished(runner: ReturnType<typeof createImportRunner>): Promise<ImportState> {
  return new Promise((resolve) => {
    const check = () => {
      const state = runner.getSnapshot();
      if (state.status === 'done' || state.status === 'stopped') resolve(state);
    };
    runner.subscribe(check);
    check();
  });
}

describe('createImportRunner', () => {
  it('counts added, already there, refused (format check, server) and skipped', async () => {
    let calls = 0;
    const runner = createImportRunner(
      deps({
        send: () => {
          calls++;
          if (calls === 2) return Promise.resolve({ id: 'b', alreadyArchived: true });
          if (calls === 3) return Promise.reject(new Error('E0001'));
          return Promise.resolve({ id: `id-${calls}`, alreadyArchived: false });
        },
      }),
    );
    void runner.start('a folder', () =>
      Promise.resolve({
        candidates: ['a.html', 'b.html', 'c.html', 'd.html', 'cut.mhtml'].map((n) => candidate(n)),
        skipped: [{ name: 'x.txt', reason: 'not a saved page' }],
        refused: [{ name: '../y.html', reason: 'refused: leaves' }],
      }),
    );
    const state = await finished(runner);
    expect(state).toMatchObject({ status: 'done', total: 5, done: 5, added: 2, existing: 1 });
    expect(state.refused.map((entry) => entry.name).sort()).toEqual([
      '../y.html',
      'c.html',
      'cut.mhtml',
    ]);
    expect(state.skipped).toHaveLength(1);
  });

  it('resumes: remembered keys are not loaded nor sent again', async () => {
    const keys = new Set<string>();
    let sent = 0;
    const send = vi.fn(() => Promise.resolve({ id: `id-${++sent}`, alreadyArchived: false }));
    const runner = createImportRunner(deps({ send, doneStore: memoryStore(keys) }));
    const source = () =>
      Promise.resolve({
        candidates: [candidate('a.html'), candidate('b.html')],
        skipped: [],
        refused: [],
      });
    void runner.start('first', source);
    expect(await finished(runner)).toMatchObject({ added: 2 });
    const again = [candidate('a.html'), candidate('b.html'), candidate('c.html')];
    void runner.start('second', () =>
      Promise.resolve({ candidates: again, skipped: [], refused: [] }),
    );
    expect(await finished(runner)).toMatchObject({ added: 1, resumed: 2 });
    expect(send).toHaveBeenCalledTimes(3);
    expect(again[0]?.load).not.toHaveBeenCalled();
  });

  it('the same bytes sent twice in one session are "already there" whatever the clocks say', async () => {
    const runner = createImportRunner(
      deps({ send: () => Promise.resolve({ id: 'same', alreadyArchived: false }) }),
    );
    void runner.start('f', () =>
      Promise.resolve({
        candidates: [candidate('a.html'), candidate('copy-of-a.html')],
        skipped: [],
        refused: [],
      }),
    );
    expect(await finished(runner)).toMatchObject({ added: 1, existing: 1 });
  });

  it('a source that cannot be read (a corrupt zip) stops before anything is sent', async () => {
    const send = vi.fn();
    const runner = createImportRunner(deps({ send }));
    void runner.start('bad.zip', () =>
      Promise.reject(new Error('bad.zip: damaged. Nothing was sent.')),
    );
    expect(await finished(runner)).toMatchObject({
      status: 'stopped',
      error: 'bad.zip: damaged. Nothing was sent.',
    });
    expect(send).not.toHaveBeenCalled();
  });

  it('stops the whole import when the archive cannot be reached', async () => {
    const runner = createImportRunner(
      deps({
        send: () => Promise.reject(new Error('offline')),
        describeError: () => ({ reason: 'Server unreachable', stop: true }),
      }),
    );
    void runner.start('f', () =>
      Promise.resolve({
        candidates: [candidate('a.html'), candidate('b.html'), candidate('c.html')],
        skipped: [],
        refused: [],
      }),
    );
    expect(await finished(runner)).toMatchObject({
      status: 'stopped',
      error: 'Server unreachable',
    });
  });
});
