// Waiting until a page has done everything its documents asked for — the state a check for
// "nothing ran, nothing left the browser" needs — instead of waiting a fixed time and hoping.
import type { BrowserContext, Frame, Page, Request } from '@playwright/test';
import { expect } from '@playwright/test';

/**
 * The requests of `context` that have started and not yet ended (answered or failed), as URLs;
 * but for those a document can no longer receive: of a closed tab, of a frame gone from its page,
 * and of a document that a navigation replaced (Chromium cancels them, not always with an event).
 */
export function trackRequests(context: BrowserContext): { open(): string[]; stop(): void } {
  const open = new Set<Request>();
  const add = (request: Request) => open.add(request);
  const end = (request: Request) => open.delete(request);
  context.on('request', add);
  context.on('requestfinished', end);
  context.on('requestfailed', end);
  const dropOf = (frame: Frame) => {
    for (const request of open) {
      if (frameOf(request) === frame && !request.isNavigationRequest()) open.delete(request);
    }
  };
  const pages = new Set<Page>();
  const watch = (page: Page) => {
    pages.add(page);
    page.on('framenavigated', dropOf);
    page.on('framedetached', dropOf);
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const live = (request: Request) => {
    const frame = frameOf(request);
    // A service worker's request, or a new tab's first one (before its page exists).
    if (!frame) return true;
    return !frame.page().isClosed() && !frame.isDetached();
  };
  return {
    open: () => [...open].filter(live).map((request) => request.url()),
    /** Stops listening (to a context that outlives the test). */
    stop() {
      context.off('request', add);
      context.off('requestfinished', end);
      context.off('requestfailed', end);
      context.off('page', watch);
      for (const page of pages) {
        page.off('framenavigated', dropOf);
        page.off('framedetached', dropOf);
      }
    },
  };
}

function frameOf(request: Request): Frame | null {
  try {
    return request.frame();
  } catch {
    return null;
  }
}

/**
 * Resolves once `page` has settled: its document and every frame the app can read (the preview
 * and the frames inside it, all same-origin) finished loading (`readyState` "complete": every
 * image, stylesheet, font and frame the parser found has answered or failed), two frames were
 * rendered since (so what style and layout discover, such as CSS backgrounds, has been requested)
 * and no request of the context is open. A request a document made would be counted before
 * this resolves; the checks after it see everything the documents did on their own.
 *
 * `tracker` must have been made before the page was opened, so that it saw every request.
 */
export async function settled(page: Page, tracker: { open(): string[] }): Promise<void> {
  await expect
    .poll(
      async () => {
        const loaded = await page.evaluate(async () => {
          const pending: string[] = [];
          const visit = (doc: Document, where: string) => {
            if (doc.readyState !== 'complete') pending.push(`${where}: ${doc.readyState}`);
            for (const frame of Array.from(doc.querySelectorAll('iframe, frame'))) {
              // Cross-origin or not yet created frames cannot be read: nothing of them to wait for.
              const inner = (frame as HTMLIFrameElement).contentDocument;
              if (inner) visit(inner, `${where} > ${frame.localName}`);
            }
          };
          visit(document, 'page');
          // Two animation frames: a full style, layout and paint pass has run since.
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          return pending;
        });
        return { loading: loaded, openRequests: tracker.open() };
      },
      { message: 'the page and its frames settle (loaded, no request open)', timeout: 30_000 },
    )
    .toEqual({ loading: [], openRequests: [] });
}
