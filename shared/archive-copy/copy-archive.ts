// "Copy from another archive": every page of a source archive (any server that speaks the API: a
// Folio or a HamsterBase) with its labels, likes, read state and highlights, and its views, into a
// target. Ids are content hashes, so a page the target has is not copied again: its missing
// highlights are added (matched by their quote and context, never duplicated), its labels joined
// and its like/read kept when either side has them. Running it again finishes what a run that
// stopped left, and changes nothing once everything is there.
import type { ArchiveApi } from './archive-api.ts';
import { ArchiveApiError, type Highlight, type Webpage, type WebpagesView } from './archive-api.ts';

/** What a target keeps of a page (to tell what is missing). */
export interface TargetPage {
  labels: string[];
  liked: boolean;
  read: boolean;
  highlights: Pick<Highlight, 'text' | 'marker' | 'note'>[];
}

/** A highlight to add: as the API's createHighlight takes it, with the source's id and time. */
export interface NewHighlight {
  id: string;
  text: string;
  textBefore: string;
  textAfter: string;
  note?: string;
  tenThousandth?: number;
  editTime?: number;
}

/** The view fields that `createView` takes. */
export type NewView = Omit<WebpagesView, 'id' | 'createdAt' | 'filters'> & {
  filters: Record<string, unknown>[];
};

/** Where pages are copied to: another server's API (ApiTarget) or a store on disk. */
export interface CopyTarget {
  find(id: string): Promise<TargetPage | undefined>;
  /** Adds the page with its file, metadata and highlights; returns the id the target gave it. */
  add(page: Webpage, base64: string): Promise<string>;
  /** Joins labels, likes and read state into a page the target has; adds highlights. */
  complete(
    id: string,
    patch: { labels?: string[]; liked?: boolean; read?: boolean },
    highlights: NewHighlight[],
  ): Promise<void>;
  views(): Promise<NewView[]>;
  addView(view: NewView): Promise<void>;
}

export interface CopyFailure {
  id: string;
  title: string;
  reason: string;
}

export interface CopyProgress {
  /** Pages in the source, once known (HamsterBase does not say until the list ends). */
  total: number | undefined;
  done: number;
  copied: number;
  /** Already in the target; `completed` of them got labels, likes or highlights added. */
  already: number;
  completed: number;
  failed: CopyFailure[];
  views: { copied: number; already: number };
}

export interface CopyOptions {
  copyViews: boolean;
  /** Pages copied at once. */
  concurrency?: number;
  perPage?: number;
  onProgress?: (progress: CopyProgress) => void;
  signal?: AbortSignal;
}

export async function copyArchive(
  source: ArchiveApi,
  target: CopyTarget,
  options: CopyOptions,
): Promise<CopyProgress> {
  const progress: CopyProgress = {
    total: undefined,
    done: 0,
    copied: 0,
    already: 0,
    completed: 0,
    failed: [],
    views: { copied: 0, already: 0 },
  };
  const report = () => options.onProgress?.({ ...progress, failed: [...progress.failed] });
  const perPage = options.perPage ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    options.signal?.throwIfAborted();
    const { webpages, total } = await source.listPage(page, perPage);
    if (total !== undefined) progress.total = total;
    // A page added or removed on the source meanwhile shifts the list: an id seen is not copied twice.
    const items = webpages.filter((item) => !seen.has(item.id));
    for (const item of items) seen.add(item.id);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, items.length) }, async () => {
        while (next < items.length) {
          const item = items[next++]!;
          options.signal?.throwIfAborted();
          try {
            const outcome = await copyPage(source, target, item.id);
            if (outcome === 'copied') progress.copied++;
            else {
              progress.already++;
              if (outcome === 'completed') progress.completed++;
            }
          } catch (error) {
            if (options.signal?.aborted) throw error;
            progress.failed.push({ id: item.id, title: item.title, reason: reasonOf(error) });
          }
          progress.done++;
          report();
        }
      }),
    );
    if (webpages.length < perPage) break;
  }
  progress.total = progress.done;
  report();
  if (options.copyViews) {
    const have = new Set((await target.views()).map(viewKey));
    for (const view of await source.get<WebpagesView[]>('/views')) {
      options.signal?.throwIfAborted();
      const wanted = toNewView(view);
      if (have.has(viewKey(wanted))) {
        progress.views.already++;
        continue;
      }
      await target.addView(wanted);
      have.add(viewKey(wanted));
      progress.views.copied++;
      report();
    }
  }
  report();
  return progress;
}

async function copyPage(
  source: ArchiveApi,
  target: CopyTarget,
  id: string,
): Promise<'copied' | 'completed' | 'unchanged'> {
  const page = await source.get<Webpage>(`/webpages/${encodeURIComponent(id)}`);
  const existing = await target.find(id);
  if (existing === undefined) {
    const content = await source.get<string>(`/webpages/${encodeURIComponent(id)}/content`);
    const given = await target.add(page, content);
    if (given !== id) {
      throw new Error(`the target stored it under another id (${given})`);
    }
    return 'copied';
  }
  const labels = [
    ...existing.labels,
    ...page.labels.filter((label) => !existing.labels.includes(label)),
  ];
  const patch = {
    ...(labels.length === existing.labels.length ? {} : { labels }),
    ...(page.liked && !existing.liked ? { liked: true } : {}),
    ...(page.read && !existing.read ? { read: true } : {}),
  };
  const missing = missingHighlights(page.highlights, existing.highlights);
  if (Object.keys(patch).length === 0 && missing.length === 0) return 'unchanged';
  await target.complete(id, patch, missing);
  return 'completed';
}

function highlightKey(highlight: Pick<Highlight, 'text' | 'marker'>): string {
  const meta = highlight.marker?.meta;
  return JSON.stringify([highlight.text, meta?.textBefore ?? '', meta?.textAfter ?? '']);
}

/** The source's highlights the target lacks (a multiset difference by quote and context). */
export function missingHighlights(
  source: readonly Highlight[],
  target: readonly Pick<Highlight, 'text' | 'marker'>[],
): NewHighlight[] {
  const counts = new Map<string, number>();
  for (const highlight of target) {
    const key = highlightKey(highlight);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const missing: NewHighlight[] = [];
  for (const highlight of source) {
    const key = highlightKey(highlight);
    const left = counts.get(key) ?? 0;
    if (left > 0) {
      counts.set(key, left - 1);
      continue;
    }
    missing.push(toNewHighlight(highlight));
  }
  return missing;
}

export function toNewHighlight(highlight: Highlight): NewHighlight {
  return {
    id: highlight.highlightId,
    text: highlight.text,
    textBefore: highlight.marker?.meta?.textBefore ?? '',
    textAfter: highlight.marker?.meta?.textAfter ?? '',
    ...(typeof highlight.note === 'string' ? { note: highlight.note } : {}),
    ...(typeof highlight.tenThousandth === 'number'
      ? { tenThousandth: highlight.tenThousandth }
      : {}),
    ...(typeof highlight.editTime === 'number' ? { editTime: highlight.editTime } : {}),
  };
}

export function toNewView(view: WebpagesView): NewView {
  return {
    title: view.title,
    description: view.description,
    sort: view.sort,
    limit: view.limit,
    enableLimit: view.enableLimit,
    match: view.match,
    // A filter's id is the server's: the target gives its own.
    filters: view.filters.map((filter) => {
      const { id: _id, ...rest } = filter as Record<string, unknown>;
      return rest;
    }),
  };
}

/** Views are the same when every field a user set is (ids and times aside). */
function viewKey(view: NewView): string {
  return JSON.stringify([
    view.title,
    view.description,
    view.sort,
    view.limit,
    view.enableLimit,
    view.match,
    view.filters.map((filter) =>
      Object.fromEntries(
        Object.entries(filter)
          .filter(([key]) => key !== 'id')
          .sort(),
      ),
    ),
  ]);
}

function reasonOf(error: unknown): string {
  if (error instanceof ArchiveApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A target that is another server, through its API. */
export class ApiTarget implements CopyTarget {
  constructor(private readonly api: ArchiveApi) {}

  async find(id: string): Promise<TargetPage | undefined> {
    return this.api.findWebpage(id);
  }

  async add(page: Webpage, base64: string): Promise<string> {
    const { data: stored } = await this.api.request<Webpage | undefined>('POST', '/webpages', {
      content: base64,
      ext: page.ext,
      title: page.title,
      ...(page.link === undefined ? {} : { link: page.link }),
    });
    if (stored === undefined || typeof stored.id !== 'string') {
      throw new Error('the target did not answer with the page');
    }
    const id = stored.id;
    const patch = {
      ...(page.labels.length > 0 ? { labels: page.labels } : {}),
      ...(page.liked ? { liked: true } : {}),
      ...(page.read ? { read: true } : {}),
      ...(page.excerpt !== stored.excerpt ? { excerpt: page.excerpt } : {}),
    };
    // Highlights first, the metadata last: a run that stops in between is finished by the next.
    await this.addHighlights(id, missingHighlights(page.highlights, stored.highlights));
    if (Object.keys(patch).length > 0) {
      await this.api.request('PATCH', `/webpages/${encodeURIComponent(id)}`, patch);
    }
    return id;
  }

  async complete(
    id: string,
    patch: { labels?: string[]; liked?: boolean; read?: boolean },
    highlights: NewHighlight[],
  ): Promise<void> {
    await this.addHighlights(id, highlights);
    if (Object.keys(patch).length > 0) {
      await this.api.request('PATCH', `/webpages/${encodeURIComponent(id)}`, patch);
    }
  }

  async views(): Promise<NewView[]> {
    return (await this.api.get<WebpagesView[]>('/views')).map(toNewView);
  }

  async addView(view: NewView): Promise<void> {
    await this.api.request('POST', '/views', view);
  }

  private async addHighlights(id: string, highlights: readonly NewHighlight[]): Promise<void> {
    for (const highlight of highlights) {
      const { id: _id, editTime: _editTime, ...body } = highlight;
      await this.api.request('POST', `/webpages/${encodeURIComponent(id)}/highlights`, body);
    }
  }
}
