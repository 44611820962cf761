import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Feed } from 'feed';
import { refuse, refuseTheRest } from '../http/closed-scope.ts';
import { failure } from '../http/envelope.ts';
import { clientHas } from '../http/operations.ts';
import type { FeedItemRecord } from '../store/feeds.ts';
import type { ViewRecord } from '../store/views.ts';
import type { RouteContext } from './context.ts';

/** Where the feeds live: outside the API's token scope (`api-scope.ts`). */
export const FEEDS_PREFIX = '/feeds';

/** The most items a feed carries (the first of the view, in its order, its limit applied first). */
export const FEED_MAX_ITEMS = 100;

/** The longest `key` compared; a longer one cannot be a secret (43 characters). */
const MAX_KEY_LENGTH = 200;

/** The one answer for an unknown view, a deleted one, a feed turned off and a wrong key. */
const NOT_FOUND = failure('not_found', 'feed not found');

/** The path of a view's feed, relative to the server's root (what the app shows to copy). */
export function feedPath(viewId: string, secret: string): string {
  return `${FEEDS_PREFIX}/views/${encodeURIComponent(viewId)}/webpages?key=${encodeURIComponent(secret)}`;
}

/**
 * The RSS 2.0 feeds of views (Folio extension), in a Fastify scope of their own beside the API's:
 *
 * ```
 * /feeds                            no token hook: the key in the address is the only credential
 * ├── GET /views/:view_id/webpages  the feed, with ?key=<the view's current secret>, else 404
 * └── /, /*                         404 (the same answer)
 * ```
 *
 * An API token is never a way in (it is not even looked at), and every refusal is the same 404,
 * so the feeds do not tell which views exist.
 */
export async function registerFeeds(app: FastifyInstance, context: RouteContext): Promise<void> {
  await app.register(
    async (feeds) => {
      feeds.get<{ Params: { view_id: string }; Querystring: Record<string, unknown> }>(
        '/views/:view_id/webpages',
        async (request, reply) => viewFeed(context, request, reply),
      );
      refuseTheRest(feeds, NOT_FOUND);
    },
    { prefix: FEEDS_PREFIX },
  );
}

function notFound(reply: FastifyReply): FastifyReply {
  return refuse(reply, NOT_FOUND);
}

function viewFeed(
  context: RouteContext,
  request: FastifyRequest<{ Params: { view_id: string }; Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): FastifyReply {
  // A server that answers as HamsterBase has no feed secrets: its feeds are HamsterBase's own.
  if (context.asHamsterBase) return notFound(reply);
  const { store } = context;
  const viewId = request.params.view_id;
  const key = request.query.key;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    return notFound(reply);
  }
  if (!store.feeds.accepts(viewId, key)) return notFound(reply);
  const view = store.views.find(viewId);
  if (view === undefined) return notFound(reply);

  const app = appOrigin(request);
  const etag = feedEtag(store.generation.current(), view, app, key);
  reply
    .header('cache-control', 'private, no-cache')
    .header('etag', etag)
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer');
  if (view.sort !== 0 && clientHas(request, etag)) return reply.code(304).send();
  const items = store.feeds.items(view, context.now(), FEED_MAX_ITEMS);
  return reply
    .type('application/rss+xml; charset=utf-8')
    .send(rss(view, items, app, `${app}${feedPath(view.id, key)}`));
}

/** The app's origin as the request reached it (the server serves the app at its root). */
function appOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function feedEtag(generation: string, view: ViewRecord, app: string, key: string): string {
  const digest = createHash('sha256')
    .update(`${generation}\u0000${JSON.stringify(view)}\u0000${app}\u0000${key}`)
    .digest('base64url')
    .slice(0, 27);
  return `"${digest}"`;
}

/** The feed of a view: its title and description, its webpages as items. */
export function rss(
  view: ViewRecord,
  items: readonly FeedItemRecord[],
  app: string,
  self: string,
): string {
  const updated = items.reduce((latest, item) => Math.max(latest, item.firstAddTime), 0);
  const feed = new Feed({
    title: xmlText(view.title),
    description: xmlText(view.description),
    id: `${app}/views/${encodeURIComponent(view.id)}`,
    link: `${app}/views/${encodeURIComponent(view.id)}`,
    feedLinks: { rss: self },
    updated: new Date(updated === 0 ? view.createdAt : updated),
    generator: 'Folio',
  });
  for (const item of items) {
    const page = `${app}/webpages/${encodeURIComponent(item.id)}`;
    feed.addItem({
      title: cdataText(item.title === '' ? (item.link ?? item.id) : item.title),
      id: page,
      link: page,
      date: new Date(item.firstAddTime),
      description: description(item),
      category: item.labels.map((label) => ({ name: xmlText(label) })),
    });
  }
  return feed.rss2();
}

/**
 * The item's description (HTML, in CDATA): its excerpt and its original link. RSS 2.0 has no
 * element for "the address this was saved from" (`<source>` names a feed, `<comments>` a page
 * of comments), so the original link is a link in the description.
 */
function description(item: FeedItemRecord): string {
  const parts: string[] = [];
  if (item.excerpt !== '') parts.push(`<p>${escapeHtml(item.excerpt)}</p>`);
  if (item.link !== null) {
    const link = escapeHtml(item.link);
    parts.push(`<p>Original: <a href="${link}">${link}</a></p>`);
  }
  return xmlText(parts.join(''));
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, newline and return; lone
 * surrogates; U+FFFE, U+FFFF) are left out: archived titles may have them.
 */
function xmlText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '',
  );
}

/**
 * Text put in a CDATA section by the feed library, which splits only the first `]]>`: every one
 * gets a zero-width space so that none ends the section.
 */
function cdataText(text: string): string {
  return xmlText(text).replaceAll(']]>', ']]\u200b>');
}
