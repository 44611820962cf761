// The target of a copy that is an archive folder on this machine (`npm run copy -- --data-dir`):
// pages are written as a restore writes them, so highlights keep their ids and pages their times.
import { createHash } from 'node:crypto';
import type {
  CopyTarget,
  NewHighlight,
  NewView,
  TargetPage,
} from '../../../shared/archive-copy/copy-archive.ts';
import { toNewView } from '../../../shared/archive-copy/copy-archive.ts';
import type { Webpage } from '../../../shared/archive-copy/archive-api.ts';
import { DEFAULT_PARSE_TIMEOUT_MS } from '../parse/parse-pool.ts';
import { toHighlight, toView } from '../routes/serialize.ts';
import type { ViewFilterInput } from '../store/view-filters.ts';
import type { ViewSort } from '../store/views.ts';
import type { Store } from '../store/store.ts';
import { isWebpageExt, originalEntryName } from './entry-names.ts';
import { addPageToStore } from './restore-archive.ts';

export class StoreTarget implements CopyTarget {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async find(id: string): Promise<TargetPage | undefined> {
    const record = this.store.webpages.findLive(id);
    if (record === undefined) return undefined;
    return {
      labels: this.store.labels.of(id),
      liked: record.liked,
      read: record.read,
      highlights: this.store.highlights.of(id).map(toHighlight),
    };
  }

  async add(page: Webpage, base64: string): Promise<string> {
    const now = this.now();
    // A page deleted here comes back with what it had, then gets what the source has.
    if (this.store.webpages.restore(page.id, now)) return page.id;
    const bytes = Buffer.from(base64, 'base64');
    const id = createHash('sha256').update(bytes).digest('hex');
    if (!isWebpageExt(page.ext)) throw new Error(`unknown ext ${String(page.ext)}`);
    const failure = await addPageToStore(
      this.store,
      {
        id,
        title: page.title,
        excerpt: page.excerpt,
        link: page.link ?? null,
        ext: page.ext,
        size: bytes.length,
        firstAddTime: page.firstAddTime,
        createTime: page.createTime,
        lastModified: now,
        liked: page.liked,
        read: page.read,
        labels: [...new Set(page.labels)],
        highlights: page.highlights.map((highlight) => ({
          id: highlight.highlightId,
          text: highlight.text,
          textBefore: highlight.marker?.meta?.textBefore ?? '',
          textAfter: highlight.marker?.meta?.textAfter ?? '',
          note: typeof highlight.note === 'string' ? highlight.note : null,
          tenThousandth:
            typeof highlight.tenThousandth === 'number' ? highlight.tenThousandth : null,
          editTime: typeof highlight.editTime === 'number' ? highlight.editTime : now,
        })),
        file: originalEntryName(id, page.ext),
      },
      bytes,
      { parseTimeoutMs: DEFAULT_PARSE_TIMEOUT_MS, now: this.now },
    );
    if (failure !== undefined) throw new Error(failure);
    return id;
  }

  async complete(
    id: string,
    patch: { labels?: string[]; liked?: boolean; read?: boolean },
    highlights: NewHighlight[],
  ): Promise<void> {
    const now = this.now();
    for (const highlight of highlights) {
      const { id: _id, editTime: _editTime, ...fields } = highlight;
      this.store.highlights.create(id, fields, now);
    }
    this.store.webpages.update(id, patch, now);
  }

  async views(): Promise<NewView[]> {
    return this.store.views.list().map((view) => toNewView(toView(view)));
  }

  async addView(view: NewView): Promise<void> {
    this.store.views.create(
      {
        ...view,
        sort: view.sort as ViewSort,
        filters: view.filters as unknown as ViewFilterInput[],
      },
      this.now(),
    );
  }
}
