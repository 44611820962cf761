/// <reference types="chrome" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext, type Worker } from '@playwright/test';
import { buildExtension } from '../scripts/build-extension.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.ts';
import { startArchive, type Archive } from './support/fixtures.ts';

// One browser with the extension loaded for the whole file.
test.describe.configure({ mode: 'serial' });

let workDir: string;
let extensionDir: string;
let context: BrowserContext;
let worker: Worker;
let archive: Archive;
let site: Server;
let siteUrl: string;

const TITLE = 'A page saved from the browser';

/** A tiny site on loopback: the page the extension saves. */
async function startSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url !== '/article') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html><head><title>${TITLE}</title>` +
        '<meta name="description" content="Saved by the extension test"></head>' +
        '<body><h1>Hello from the live web</h1><p>Some text worth keeping.</p></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/article` };
}

test.beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'folio-extension-e2e-'));
  extensionDir = join(workDir, 'extension');
  await buildExtension(extensionDir, join(workDir, 'extension.zip'));
  archive = await startArchive();
  ({ server: site, url: siteUrl } = await startSite());
  // The full browser: the journeys' headless shell loads no extension.
  context = await chromium.launchPersistentContext(join(workDir, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
});

test.afterAll(async () => {
  await context?.close();
  await archive?.stop();
  await new Promise((resolve) => site?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

interface Outcome {
  status: string;
  reason?: string;
  pageUrl?: string;
  page?: { id: string; title: string; link?: string };
}

/** What the toolbar button does, for the one tab of the browser; and the badge it leaves. */
async function saveTheTab(): Promise<{ outcome: Outcome; badge: string }> {
  return worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({});
    if (tab?.id === undefined) throw new Error('no tab');
    const save = (globalThis as unknown as { folioSaveTab: (id: number) => Promise<unknown> })
      .folioSaveTab;
    const outcome = (await save(tab.id)) as Outcome;
    return { outcome, badge: await chrome.action.getBadgeText({ tabId: tab.id }) };
  });
}

test('saves the current tab into the archive with its title and link, then says it is already there', async () => {
  await worker.evaluate((settings) => chrome.storage.local.set({ settings }), {
    baseUrl: archive.url,
    token: archive.token,
    appUrl: '',
    labels: ['from the browser'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  for (const other of context.pages()) if (other !== page) await other.close();
  await page.goto(siteUrl);
  await expect(page).toHaveTitle(TITLE);

  const first = await saveTheTab();
  expect(first.outcome.status, first.outcome.reason).toBe('saved');
  expect(first.badge).toBe('✓');
  const id = first.outcome.page?.id ?? '';
  expect(first.outcome.pageUrl).toBe(`${archive.url}/webpages/${id}`);

  const stored = await archive.api<{ title: string; link?: string; ext: string; labels: string[] }>(
    'GET',
    `/webpages/${id}`,
  );
  expect(stored).toMatchObject({
    title: TITLE,
    link: siteUrl,
    ext: 'mhtml',
    labels: ['from the browser'],
  });

  const second = await saveTheTab();
  expect(second.outcome.status).toBe('exists');
  expect(second.outcome.page?.id).toBe(id);
  expect(second.badge).toBe('=');
  const list = await archive.api<{ webpages: unknown[] }>('GET', '/webpages');
  expect(list.webpages).toHaveLength(1);
});

test('a refused token: the badge says it failed, with the server’s reason, and nothing is stored', async () => {
  await worker.evaluate((settings) => chrome.storage.local.set({ settings }), {
    baseUrl: archive.url,
    token: 'not-the-token',
    appUrl: '',
    labels: [],
  });
  const { outcome, badge } = await saveTheTab();
  expect(outcome.status).toBe('failed');
  expect(outcome.reason).toBe('Invalid token');
  expect(badge).toBe('!');
  const list = await archive.api<{ webpages: unknown[] }>('GET', '/webpages');
  expect(list.webpages).toHaveLength(1);
});
