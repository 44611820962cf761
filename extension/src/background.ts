import { savePage, type SaveOutcome } from './save.ts';
import { loadSettings } from './storage.ts';

const MENU_ID = 'save-to-folio';
const COMMAND = 'save-page';
/** Notification id prefix; the rest is looked up in session storage (the worker may sleep). */
const NOTIFICATION_PREFIX = 'folio-saved:';

const BADGES: Record<SaveOutcome['status'], { text: string; color: string; title: string }> = {
  saved: { text: '✓', color: '#1a7f37', title: 'Saved to Folio' },
  exists: { text: '=', color: '#0969da', title: 'Already in the archive' },
  failed: { text: '!', color: '#cf222e', title: 'Not saved' },
};

/**
 * Captures the tab and saves it to the configured archive; the badge and a notification say how it
 * went. What the toolbar button, the context menu and the keyboard shortcut call (and the tests,
 * through the service worker).
 */
export async function saveTab(tabId: number): Promise<SaveOutcome> {
  const settings = await loadSettings();
  const tab = await chrome.tabs.get(tabId);
  let outcome: SaveOutcome;
  if (settings === undefined) {
    outcome = {
      status: 'failed',
      reason: 'Set the archive’s address and token in the options first',
    };
    await chrome.runtime.openOptionsPage();
  } else {
    await chrome.action.setBadgeText({ tabId, text: '…' });
    try {
      const mhtml = await capture(tabId);
      outcome = await savePage({ mhtml, tabUrl: tab.url, settings });
    } catch (error) {
      outcome = {
        status: 'failed',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
  }
  await report(tabId, outcome);
  return outcome;
}

/** How many times a capture whose file vanished before it was read is taken again. */
const CAPTURE_ATTEMPTS = 3;

/**
 * The tab as MHTML bytes. Chromium hands the capture over as a Blob backed by a temporary file;
 * in a service worker that file is sometimes gone before the Blob is read (a `NotFoundError`,
 * seen on the first capture of a fresh profile), so the capture is taken again, at most
 * CAPTURE_ATTEMPTS times. Any other error ends it.
 */
async function capture(tabId: number): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    const blob = await chrome.pageCapture.saveAsMHTML({ tabId });
    if (blob === undefined) throw new Error('This page cannot be captured');
    try {
      return new Uint8Array(await blob.arrayBuffer());
    } catch (error) {
      const vanished = error instanceof DOMException && error.name === 'NotFoundError';
      if (!vanished || attempt >= CAPTURE_ATTEMPTS) throw error;
    }
  }
}

async function report(tabId: number, outcome: SaveOutcome): Promise<void> {
  const badge = BADGES[outcome.status];
  await chrome.action.setBadgeBackgroundColor({ tabId, color: badge.color });
  await chrome.action.setBadgeText({ tabId, text: badge.text });
  const detail =
    outcome.status === 'failed' ? outcome.reason : outcome.page.title || outcome.page.id;
  await chrome.action.setTitle({ tabId, title: `${badge.title}: ${detail}` });
  const notificationId = `${NOTIFICATION_PREFIX}${crypto.randomUUID()}`;
  if (outcome.status !== 'failed') {
    await chrome.storage.session.set({ [notificationId]: outcome.pageUrl });
  }
  try {
    await chrome.notifications.create(notificationId, {
      type: 'basic',
      iconUrl: chrome.runtime.getURL('icon-128.png'),
      title: badge.title,
      message:
        outcome.status === 'failed' ? outcome.reason : `${detail}\nClick to open it in Folio.`,
    });
  } catch {
    // Notifications may be off for the browser; the badge and its title still tell.
  }
}

async function openNotified(notificationId: string): Promise<void> {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
  const url = (await chrome.storage.session.get(notificationId))[notificationId] as unknown;
  if (typeof url === 'string') await chrome.tabs.create({ url });
  await chrome.notifications.clear(notificationId);
}

function saveFrom(tab: chrome.tabs.Tab | undefined): void {
  if (tab?.id !== undefined) void saveTab(tab.id);
}

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({
    id: MENU_ID,
    title: 'Save page to Folio',
    contexts: ['page', 'frame', 'selection', 'link', 'image'],
  });
});
chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) saveFrom(tab);
});
chrome.action.onClicked.addListener((tab) => saveFrom(tab));
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === COMMAND) saveFrom(tab);
});
chrome.notifications.onClicked.addListener((id) => void openNotified(id));

// For the end-to-end test: the same function the button calls, reachable from the worker.
(globalThis as { folioSaveTab?: typeof saveTab }).folioSaveTab = saveTab;
