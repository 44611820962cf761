import { ArchiveClient, ArchiveError } from './api.ts';
import { normalizeBaseUrl, originPattern, parseLabels, type Settings } from './settings.ts';
import { loadSettings, saveSettings } from './storage.ts';

const form = document.querySelector<HTMLFormElement>('#options');
const status = document.querySelector<HTMLElement>('#status');
const field = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`);

function show(kind: 'ok' | 'error' | 'busy', text: string): void {
  if (status === null) return;
  status.dataset.kind = kind;
  status.textContent = text;
}

/** The form's settings, or why they are not usable. */
function read(): Settings | string {
  const baseUrl = normalizeBaseUrl(field('base-url')?.value ?? '');
  if (baseUrl === undefined) return 'The base URL must be an http:// or https:// address';
  const token = (field('token')?.value ?? '').trim();
  if (token === '') return 'The token is missing';
  const appText = (field('app-url')?.value ?? '').trim();
  const appUrl = appText === '' ? '' : normalizeBaseUrl(appText);
  if (appUrl === undefined) return 'The app URL must be an http:// or https:// address';
  return { baseUrl, token, appUrl, labels: parseLabels(field('labels')?.value ?? '') };
}

/** `GET /version` with the form's settings, like the app's connection check. */
async function check(settings: Settings): Promise<boolean> {
  show('busy', 'Checking…');
  try {
    const { name, version } = await new ArchiveClient(settings.baseUrl, settings.token).version();
    show('ok', `Connected to ${name === 'folio' ? 'Folio' : 'HamsterBase'} ${version}`);
    return true;
  } catch (error) {
    const message = error instanceof ArchiveError ? error.message : String(error);
    show(
      'error',
      error instanceof ArchiveError && error.status === 401 ? 'Token refused (401)' : message,
    );
    return false;
  }
}

form?.addEventListener('submit', (event) => {
  event.preventDefault();
  const settings = read();
  if (typeof settings === 'string') return show('error', settings);
  // Asked at once, in the click's user gesture: access to the archive's origin, and no other.
  const granted = chrome.permissions.request({ origins: [originPattern(settings.baseUrl)] });
  void (async () => {
    const allowed = await granted.catch(() => false);
    await saveSettings(settings);
    const connected = await check(settings);
    if (!allowed && connected) {
      show('ok', `Saved. (Chrome access to ${new URL(settings.baseUrl).origin} was not granted.)`);
    } else if (connected) {
      show('ok', `Saved. ${status?.textContent ?? ''}`);
    }
  })();
});

document.querySelector('#check')?.addEventListener('click', () => {
  const settings = read();
  if (typeof settings === 'string') show('error', settings);
  else void check(settings);
});

void loadSettings().then((settings) => {
  if (settings === undefined) return;
  const set = (id: string, value: string) => {
    const input = field(id);
    if (input !== null) input.value = value;
  };
  set('base-url', settings.baseUrl);
  set('token', settings.token);
  set('app-url', settings.appUrl);
  set('labels', settings.labels.join(', '));
});
