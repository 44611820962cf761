import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAuthenticator } from './auth.ts';
import { REPO_ROOT, type LogLevel } from './config.ts';
import { installBodyParsers } from './http/body-parsers.ts';
import { registerApi } from './http/api-scope.ts';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  installErrorHandler,
} from './http/error-handler.ts';
import { requestLogSerializer } from './http/request-log.ts';
import { installRequestTargetCheck, LOOPBACK_HOST_NAMES } from './http/request-target.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { DEFAULT_PARSE_TIMEOUT_MS, parsePool } from './parse/parse-pool.ts';
import type { RouteContext } from './routes/context.ts';
import { ExportTickets } from './archive-io/export-tickets.ts';
import { registerExportDownloads, registerExportRoutes } from './routes/export.ts';
import { registerFacetRoutes } from './routes/facets.ts';
import { registerFeeds } from './routes/feeds.ts';
import { registerHighlightRoutes } from './routes/highlights.ts';
import { registerHighlightListRoutes } from './routes/highlight-list.ts';
import { registerMetaRoutes } from './routes/meta.ts';
import { partLinkKeys, registerPartLinks } from './routes/part-links.ts';
import { HeldParts } from './routes/held-parts.ts';
import { registerSearchRoutes } from './routes/search.ts';
import { registerViewFeedRoutes } from './routes/view-feeds.ts';
import { registerToSaveRoutes } from './routes/to-save.ts';
import { registerViewRoutes } from './routes/views.ts';
import { registerWebpageRoutes } from './routes/webpages.ts';
import { loadSpec } from './spec.ts';
import { registerSpa } from './static.ts';
import { openStore } from './store/store.ts';

export interface AppOptions {
  dataDir: string;
  token: string;
  /** Largest decoded upload in bytes; 200 MiB by default. */
  maxUploadBytes?: number;
  /** The time limit of an upload's parse in ms (FOLIO_PARSE_TIMEOUT_S); 30 s by default. */
  parseTimeoutMs?: number;
  /** The built SPA; `<repo>/dist` by default. */
  staticDir?: string;
  /** Test switch: PATCH /views ignores `filters`, like HamsterBase. */
  ignoreViewFilterPatch?: boolean;
  /** Test switch: search answers 404, like a server without it. */
  disableSearch?: boolean;
  /** Test switch: answer as HamsterBase 0.9.2 where Folio extends it (see `Config`). */
  asHamsterBase?: boolean;
  /** `silent` by default (tests); main passes FOLIO_LOG. */
  logLevel?: LogLevel;
  /** The clock (epoch ms); tests move it. */
  now?: () => number;
  /**
   * Host names (lower case, no port) the Host header must name; `'any'` accepts every host. The
   * loopback names by default (main passes `allowedHostsFor(HOST, FOLIO_ALLOWED_HOSTS)`).
   */
  allowedHosts?: ReadonlySet<string> | 'any';
}

/** Largest JSON body of every request but uploads. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Builds the whole server (store, API, SPA) without listening. Closing it closes the store and
 * stops the upload parser's workers.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const store = await openStore(options.dataDir);
  parsePool.retain();
  try {
    const now = options.now ?? Date.now;
    // The default token and every token of the CLI that is not revoked.
    const authenticate = createAuthenticator(options.token, store.tokens, now, (error) =>
      app.log.warn({ err: error }, 'could not record the use of a token'),
    );
    const spec = loadSpec();
    const app = Fastify({
      logger: {
        level: options.logLevel ?? 'silent',
        // The process's own stdout, not a second writer on its descriptor: log lines and what
        // `main` prints stay in the order they were written.
        stream: process.stdout,
        redact: ['req.headers.authorization', 'req.headers.cookie'],
        serializers: { req: requestLogSerializer(spec) },
      },
      bodyLimit: DEFAULT_BODY_LIMIT,
      // On close, drop keep-alive connections that carry no request (browsers keep spare ones
      // open), so SIGTERM stops the server at once instead of waiting for clients to hang up.
      forceCloseConnections: 'idle',
      routerOptions: { maxParamLength: 1000 },
      frameworkErrors: frameworkErrorHandler(),
      clientErrorHandler,
    });
    app.addHook('onClose', async () => store.close());
    app.addHook('onClose', () => parsePool.release());

    const allowedHosts = options.allowedHosts ?? new Set(LOOPBACK_HOST_NAMES);
    installRequestTargetCheck(app, {
      allowedHosts: allowedHosts === 'any' ? undefined : allowedHosts,
    });
    installErrorHandler(app);
    installBodyParsers(app);
    installSecurityHeaders(app);

    const context: RouteContext = {
      store,
      now,
      maxUploadBytes: options.maxUploadBytes ?? 200 * 1024 * 1024,
      parseTimeoutMs: options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS,
      ignoreViewFilterPatch: options.ignoreViewFilterPatch ?? false,
      disableSearch: options.disableSearch ?? false,
      asHamsterBase: options.asHamsterBase ?? false,
      version: packageVersion(),
      heldParts: new HeldParts(),
      partLinkKey: partLinkKeys(store.partLinkKey, options.token, () =>
        store.tokens.revokedCount(),
      ),
    };
    app.addHook('onClose', async () => context.heldParts.clear());
    const exportTickets = new ExportTickets(now);
    // Every operation in the API's scope, behind its token hook (api-scope.ts).
    await registerApi(app, spec, authenticate, (registry) => {
      registerMetaRoutes(registry, context);
      registerFacetRoutes(registry, context);
      registerWebpageRoutes(registry, context);
      registerHighlightRoutes(registry, context);
      registerSearchRoutes(registry, context);
      registerViewRoutes(registry, context);
      registerViewFeedRoutes(registry, context);
      registerHighlightListRoutes(registry, context);
      registerToSaveRoutes(registry, context);
      registerExportRoutes(registry, context, exportTickets);
    });
    // The views' RSS feeds: outside the token's scope, a per-view secret instead (feeds.ts).
    await registerFeeds(app, context);
    // The preview's links to large parts: outside the token's scope, signed (part-links.ts).
    await registerPartLinks(app, context);
    // Export downloads: outside the token's scope, a short-lived one-use ticket instead.
    await registerExportDownloads(app, context, exportTickets);

    app.get('/healthz', async () => ({ ok: true }));
    await registerSpa(app, options.staticDir ?? join(REPO_ROOT, 'dist'));
    return app;
  } catch (error) {
    await store.close();
    await parsePool.release();
    throw error;
  }
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}
