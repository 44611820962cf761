import { normalizeBaseUrl, type Settings } from './settings.ts';

/** Where the settings are kept in `chrome.storage.local`. */
const KEY = 'settings';

export async function loadSettings(): Promise<Settings | undefined> {
  const stored = (await chrome.storage.local.get(KEY))[KEY] as Partial<Settings> | undefined;
  if (stored === undefined || typeof stored.baseUrl !== 'string') return undefined;
  const baseUrl = normalizeBaseUrl(stored.baseUrl);
  if (baseUrl === undefined || typeof stored.token !== 'string' || stored.token === '') {
    return undefined;
  }
  return {
    baseUrl,
    token: stored.token,
    appUrl: typeof stored.appUrl === 'string' ? stored.appUrl : '',
    labels: Array.isArray(stored.labels)
      ? stored.labels.filter((label): label is string => typeof label === 'string')
      : [],
  };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ [KEY]: settings });
}
