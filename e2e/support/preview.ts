// Looking into the preview frame from the app window, and watching where the browser connects.
import type { BrowserContext, Page } from '@playwright/test';

/** The preview frame of a webpage (its title is "Preview of <page title>"). */
export const PREVIEW = 'iframe[title^="Preview of"]';

/** Every request any page of `context` makes from now on, as full URLs. */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

/**
 * The content type of each answer any page of `context` gets from now on for webpage `id`'s file
 * (`GET /webpages/{id}/content`), in order.
 */
export function recordFileAnswers(context: BrowserContext, id: string): string[] {
  const types: string[] = [];
  context.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith(`/webpages/${id}/content`))
      types.push(response.headers()['content-type'] ?? '');
  });
  return types;
}

/** The requests that went anywhere but `origin` (data:, blob: and about: never leave the browser). */
export function requestsOutside(urls: readonly string[], origin: string): string[] {
  return urls.filter((url) => {
    const parsed = new URL(url);
    if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) return false;
    return parsed.origin !== origin;
  });
}

export interface PreviewState {
  /** The frame exists and its document is readable from the app (same origin, no scripts). */
  found: boolean;
  sandbox: string | null;
  text: string;
  title: string;
  photo: { naturalWidth: number; naturalHeight: number; complete: boolean; src: string } | null;
  headlineColor: string;
  markerBorder: string;
  scriptTarget: string | null;
  /** `src` of every element that still points at `liveHost`, and CSS rules that mention it. */
  liveReferences: string[];
  /** Set by the page's scripts in the app window if they ever ran. */
  pwned: unknown;
  liveScriptRan: unknown;
}

/** What the preview document shows right now (read through the same-origin frame). */
export function previewState(page: Page, liveHost: string, selector = PREVIEW) {
  return page.evaluate(
    ({ selector, liveHost }): PreviewState => {
      const globals = window as unknown as Record<string, unknown>;
      const frame = document.querySelector<HTMLIFrameElement>(selector);
      const doc = frame?.contentDocument;
      const win = frame?.contentWindow;
      const empty: PreviewState = {
        found: false,
        sandbox: frame?.getAttribute('sandbox') ?? null,
        text: '',
        title: '',
        photo: null,
        headlineColor: '',
        markerBorder: '',
        scriptTarget: null,
        liveReferences: [],
        pwned: globals.__pwned,
        liveScriptRan: globals.__liveScriptRan,
      };
      if (!frame || !doc || !win || !doc.body) return empty;
      const image = doc.getElementById('photo') as HTMLImageElement | null;
      const style = (id: string) => {
        const element = doc.getElementById(id);
        return element ? win.getComputedStyle(element) : null;
      };
      const headline = style('headline');
      const marker = style('marker');
      const liveReferences: string[] = [];
      for (const element of Array.from(doc.querySelectorAll('[src], [href], [srcset]'))) {
        if (element.localName === 'a') continue; // links are opened by the app, on a click
        for (const name of ['src', 'href', 'srcset']) {
          const value = element.getAttribute(name);
          if (value?.includes(liveHost)) liveReferences.push(`<${element.localName} ${name}>`);
        }
      }
      for (const sheet of Array.from(doc.styleSheets)) {
        try {
          for (const rule of Array.from(sheet.cssRules)) {
            if (rule.cssText.includes(liveHost)) liveReferences.push(rule.cssText);
          }
        } catch {
          liveReferences.push(`unreadable stylesheet ${sheet.href}`);
        }
      }
      return {
        ...empty,
        found: true,
        text: doc.body.innerText,
        title: doc.title,
        photo: image
          ? {
              naturalWidth: image.naturalWidth,
              naturalHeight: image.naturalHeight,
              complete: image.complete,
              src: image.getAttribute('src') ?? '',
            }
          : null,
        headlineColor: headline?.color ?? '',
        markerBorder: marker
          ? `${marker.borderLeftWidth} ${marker.borderLeftStyle} ${marker.borderLeftColor}`
          : '',
        scriptTarget: doc.getElementById('script-target')?.textContent ?? null,
        liveReferences,
      };
    },
    { selector, liveHost },
  );
}
