// `npm run import`: a folder or a .zip of saved pages sent through the public API to a real server
// (real HTTP, real SQLite, real files), resumable, with unsafe zips refused and the archive unchanged.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildZip, SYMLINK_MODE } from '../../shared/formats/zip-test-support.ts';
import { runImport, type ImportOptions } from '../src/import/import-files.ts';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../../test/support/archives.ts';
import { ok } from './support/api.ts';
import { runScript, type CliResult } from './support/spawned-server.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const CHROMIUM_MHTML = readFileSync(
  new URL('../../test/fixtures/chromium-sample.mhtml', import.meta.url),
);

let server: TestServer;
let scratch: string;

beforeEach(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'folio-import-test-'));
});

afterEach(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The saved pages of the tests, by path: three formats, nested, and a truncated MHTML. */
function pages(): Record<string, Uint8Array> {
  return {
    'one.html': makeHtml({ title: 'One' }),
    'news/two.mhtml': makeMhtml({ html: '<title>Two</title><p>two</p>', url: 'https://ex.test/2' }),
    'news/deep/three.webarchive': makeWebarchive({
      html: '<title>Three</title><p>three</p>',
      url: 'https://ex.test/3',
    }),
    'news/deep/cut.mhtml': CHROMIUM_MHTML.subarray(0, 700),
    'notes.txt': strToU8('not a page'),
    'news/picture.png': makePng(2, 2),
  };
}

function writeFolder(files: Record<string, Uint8Array>): string {
  const root = join(scratch, 'saved');
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  return root;
}

function options(input: string): ImportOptions {
  return {
    input,
    baseUrl: server.url,
    token: server.token,
    statePath: join(scratch, 'state.jsonl'),
    concurrency: 3,
  };
}

async function titles(): Promise<string[]> {
  const list = await ok(server, 'listWebpages', { query: { per_page: 100 } });
  return (list.webpages as { title: string }[]).map((page) => page.title).sort();
}

/** Runs the CLI in a child process (asynchronously: the server answers from this process). */
function runCli(args: string[]): Promise<CliResult> {
  return runScript(
    'server/src/import-cli.ts',
    args,
    { FOLIO_DATA_DIR: join(scratch, 'data') },
    60_000,
  );
}

describe('npm run import of a folder', () => {
  it('sends the pages (nested), skips other files, refuses a truncated MHTML with E0001; a second run sends nothing', async () => {
    const root = writeFolder(pages());
    const first = await runImport(options(root));
    expect(first).toMatchObject({ total: 4, added: 3, existing: 0, resumed: 0, sent: 4 });
    expect(first.refused).toEqual([
      {
        name: 'news/deep/cut.mhtml',
        reason: expect.stringMatching(/^E0001 parse error: .*truncated/),
      },
    ]);
    expect(first.skipped.map((entry) => entry.name).sort()).toEqual([
      'news/picture.png',
      'notes.txt',
    ]);
    expect(first.skipped[0]?.reason).toBe('not a saved page (html, mhtml or webarchive)');
    expect(await titles()).toEqual(['One', 'Three', 'Two']);

    const second = await runImport(options(root));
    expect(second).toMatchObject({ total: 4, added: 0, existing: 0, resumed: 3, sent: 0 });
    expect(second.refused).toHaveLength(1);
    expect(await titles()).toEqual(['One', 'Three', 'Two']);
  });

  it('without its state, the same files are answered "already there"', async () => {
    const root = writeFolder(pages());
    // Stored a minute ago (the server's clock), then sent again now.
    server.clock.set(Date.now() - 60_000);
    await runImport(options(root));
    server.clock.set(Date.now());
    const again = await runImport({ ...options(root), statePath: join(scratch, 'other.jsonl') });
    expect(again).toMatchObject({ added: 0, existing: 3, sent: 4 });
  });
});

describe('npm run import of a zip', () => {
  it('sends the same pages from a zip made by zipSync, and resumes', async () => {
    const zip = join(scratch, 'saved.zip');
    writeFileSync(zip, zipSync({ ...pages(), 'empty-folder/': new Uint8Array() }));
    const first = await runImport(options(zip));
    expect(first).toMatchObject({ total: 4, added: 3, sent: 4 });
    expect(first.refused.map((entry) => entry.name)).toEqual(['news/deep/cut.mhtml']);
    expect(first.skipped).toHaveLength(2);
    const second = await runImport(options(zip));
    expect(second).toMatchObject({ resumed: 3, sent: 0 });
    expect(await titles()).toEqual(['One', 'Three', 'Two']);
  });

  it('refuses a zip bomb, a ../ entry, a symlink and a 10 GB declared size; sends the rest', async () => {
    const zeros = new Uint8Array(3 * 1024 * 1024);
    const zip = join(scratch, 'hostile.zip');
    writeFileSync(
      zip,
      buildZip([
        { name: 'bomb.html', data: zeros, declaredSize: 1000 },
        { name: '../escape.html', data: makeHtml({ title: 'Escape' }) },
        { name: 'link.html', data: strToU8('/etc/passwd'), method: 0, unixMode: SYMLINK_MODE },
        { name: 'huge.html', data: makeHtml({ title: 'Huge' }), declaredSize: 10 * 2 ** 30 },
        { name: 'fine.html', data: makeHtml({ title: 'Fine' }) },
      ]),
    );
    const summary = await runImport({
      ...options(zip),
      limits: { maxEntryBytes: 1024 * 1024, maxEntries: 100 },
    });
    expect(summary.refused.map(({ name, reason }) => `${name}: ${reason}`).sort()).toEqual([
      '../escape.html: refused: its name leaves the archive\'s folder ("../escape.html")',
      'bomb.html: refused: it inflates to more than the 1000 bytes it declares',
      `huge.html: refused: it declares ${10 * 2 ** 30} bytes, over the upload limit of 1048576`,
      'link.html: refused: it is a symbolic link',
    ]);
    expect(summary).toMatchObject({ added: 1, sent: 1 });
    expect(await titles()).toEqual(['Fine']);
  });

  it('a corrupt zip stops before anything is sent: exit code 1, a clear message, the archive unchanged', async () => {
    const whole = zipSync({
      'a.html': makeHtml({ title: 'A' }),
      'b.html': makeHtml({ title: 'B' }),
    });
    const zip = join(scratch, 'corrupt.zip');
    writeFileSync(zip, whole.subarray(0, whole.length - 40));
    const result = await runCli([
      zip,
      '--url',
      server.url,
      '--token',
      server.token,
      '--state',
      join(scratch, 'state.jsonl'),
    ]);
    expect(result.stderr).toContain(
      'The import stopped: this is not a zip file, or it is damaged (no end of central directory)',
    );
    expect(result.code).toBe(1);
    expect(await titles()).toEqual([]);
  });
});

describe('the import command', () => {
  it('exits 1 when a file was refused and prints the summary', async () => {
    const root = writeFolder(pages());
    const result = await runCli([
      root,
      '--url',
      server.url,
      '--token',
      server.token,
      '--state',
      join(scratch, 's.jsonl'),
    ]);
    expect(result.stdout).toContain(
      '4 saved pages: 3 added, 0 already there, 0 imported by an earlier run, 1 refused; 2 other files skipped',
    );
    expect(result.stdout).toMatch(/news\/deep\/cut\.mhtml: E0001 parse error/);
    expect(result.code).toBe(1);
  });
});
