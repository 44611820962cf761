import { BINARY_MHTML_TYPE, LINKED_MHTML_TYPE } from '../../../shared/contract/media-types.ts';
import { negotiate } from '../http/accept.ts';
import { badRequest } from '../http/errors.ts';
import type { OperationQuery, OperationRegistry } from '../http/operations.ts';
import { parseHttpLink } from '../links.ts';
import type { WebpageFilters } from '../store/webpage-filters.ts';
import type { WebpagePatch } from '../store/webpages.ts';
import { installUploadBodyParser, receivedContentOf } from '../upload/body-parser.ts';
import { INVALID_LINK, storeUpload, uploadBodyLimit } from '../upload/store-upload.ts';
import { UPLOAD_FIELD_MESSAGES } from '../upload/hamsterbase-messages.ts';
import { uploadShapeOf } from '../upload/upload-shape.ts';
import { base64Envelope, rawFile } from './streamed-envelopes.ts';
import { binaryMhtmlFile, linkedMhtmlFile } from './binary-mhtml.ts';
import { loadWebpage, type RouteContext } from './context.ts';
import { toListItem } from './serialize.ts';

/** What `getWebpageContent` can answer, the envelope first (the contract's default). */
const CONTENT_TYPES = ['application/json', 'application/octet-stream'];
/**
 * And for an MHTML page, for the preview: its base64 parts in binary, and the same with its large
 * parts as links (`part-links.ts`).
 */
const MHTML_CONTENT_TYPES = [...CONTENT_TYPES, BINARY_MHTML_TYPE, LINKED_MHTML_TYPE];

export function registerWebpageRoutes(registry: OperationRegistry, context: RouteContext): void {
  const { store } = context;
  const uploadShape = uploadShapeOf();

  registry.register('listWebpages', ({ query, reply }) => {
    // The contract's extensions (`link`, `X-Total-Count`); as HamsterBase, neither.
    const extended = !context.asHamsterBase;
    const filters = {
      ...listFilters(query),
      ...(query.link === undefined || !extended ? {} : { link: query.link }),
    };
    const records = store.list.list(filters, query.sort ?? 'first_add_time_desc', paging(query));
    if (extended) reply.header('x-total-count', String(store.list.count(filters)));
    return { webpages: records.map(toListItem) };
  });

  registry.register(
    'uploadWebpage',
    async ({ body }) => {
      // The body parser decoded `content` into a temp file as it arrived.
      const content = receivedContentOf(body);
      if (content === undefined) throw new Error('the upload body parser did not run');
      const id = await storeUpload(
        store,
        { ...body, content },
        {
          maxUploadBytes: context.maxUploadBytes,
          now: context.now(),
          parseTimeoutMs: context.parseTimeoutMs,
        },
      );
      return loadWebpage(store, id);
    },
    {
      bodyLimit: uploadBodyLimit(context.maxUploadBytes),
      bodyFieldMessages: UPLOAD_FIELD_MESSAGES,
      scope: (scope) =>
        installUploadBodyParser(scope, store.blobs, context.maxUploadBytes, uploadShape),
    },
  );

  registry.register('getWebpage', ({ params }) => loadWebpage(store, params.id));

  registry.register('patchWebpage', ({ params, body }) => {
    const patch: WebpagePatch = {
      ...(body.title === undefined ? {} : { title: body.title }),
      ...(body.excerpt === undefined ? {} : { excerpt: body.excerpt }),
      ...(body.liked === undefined ? {} : { liked: body.liked }),
      ...(body.read === undefined ? {} : { read: body.read }),
      ...(body.link === undefined ? {} : { link: patchLink(body.link, context.asHamsterBase) }),
      ...(body.labels === undefined ? {} : { labels: normalizeLabels(body.labels) }),
    };
    loadWebpage(store, params.id);
    store.webpages.update(params.id, patch, context.now());
    return loadWebpage(store, params.id);
  });

  registry.register('deleteWebpage', ({ params }) => {
    const before = loadWebpage(store, params.id);
    store.webpages.softDelete(params.id, context.now());
    return before;
  });

  // Streamed: a 20 MB file is never a 27 MB string (nor its JSON copy) in memory. Folio's
  // extensions: the bytes themselves to a client that asks for them (`Accept`), which spares it the
  // base64 and the JSON, and for an MHTML page the same page with its parts in binary (the
  // preview's); HamsterBase always sends the envelope.
  registry.register('getWebpageContent', async ({ params, request, reply }) => {
    const webpage = loadWebpage(store, params.id);
    const original = await store.originals.find(params.id);
    // A damaged store (a file removed by hand): said before answering anything.
    if (original === undefined) throw new Error(`the file of webpage ${params.id} is missing`);
    if (context.asHamsterBase) return base64Envelope(original);
    reply.header('vary', 'accept');
    const fileName = `${webpage.id}.${webpage.ext}`;
    const offers = webpage.ext === 'mhtml' ? MHTML_CONTENT_TYPES : CONTENT_TYPES;
    switch (negotiate(request.headers.accept, offers)) {
      case BINARY_MHTML_TYPE:
        return (await binaryMhtmlFile(original, fileName)) ?? rawFile(original, fileName);
      case LINKED_MHTML_TYPE: {
        const linked = await linkedMhtmlFile(context, webpage.id, original, fileName, request.url);
        if (linked === null) return rawFile(original, fileName);
        // The images' links, for the client to load while it reads the answer.
        if (linked.preload !== '') reply.header('link', linked.preload);
        return linked.file;
      }
      case 'application/octet-stream':
        return rawFile(original, fileName);
      default:
        return base64Envelope(original);
    }
  });
}

type ListQuery = OperationQuery<'listWebpages'> | OperationQuery<'searchWebpages'>;

/** The list's (and search's) filters from the validated query. */
export function listFilters(query: ListQuery): WebpageFilters {
  return {
    ...(query.liked === undefined ? {} : { liked: query.liked === 'true' }),
    ...(query.read === undefined ? {} : { read: query.read === 'true' }),
    ...(query.annotated === undefined ? {} : { annotated: query.annotated === 'true' }),
    ...(query.host === undefined ? {} : { hosts: query.host }),
    ...(query.labels === undefined ? {} : { labels: query.labels }),
    ...(query.ext === undefined ? {} : { exts: query.ext }),
  };
}

export function paging(query: ListQuery) {
  return { page: query.page ?? 1, perPage: query.per_page ?? 30 };
}

/** `null` removes the link; HamsterBase refuses it like any link that is not a URL. */
function patchLink(link: string | null, asHamsterBase: boolean): NonNullable<WebpagePatch['link']> {
  if (link === null && !asHamsterBase) return { link: null, host: null };
  if (link === null) throw badRequest(INVALID_LINK);
  const parsed = parseHttpLink(link);
  if (parsed === undefined) throw badRequest(INVALID_LINK);
  return parsed;
}

/** Trimmed, deduplicated, in the order given; a blank label is refused. */
export function normalizeLabels(labels: readonly string[]): string[] {
  const result: string[] = [];
  labels.forEach((label, index) => {
    const trimmed = label.trim();
    if (trimmed === '') throw badRequest(`body/labels/${index} must not be blank`);
    if (!result.includes(trimmed)) result.push(trimmed);
  });
  return result;
}
